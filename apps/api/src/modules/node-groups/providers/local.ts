import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LocalConfig } from './config.js';
import { type LaunchedInstance, type LaunchSpec, ProviderError, type ScalingProvider } from './provider.js';

const LOCAL_NODE_SCRIPT = fileURLToPath(new URL('./local-node.ts', import.meta.url));
const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * Starts and stops node processes on this machine: by default the stand-in node of local-node.ts
 * (run with this process's Node and tsx), or SCALING_LOCAL_NODE_COMMAND, a command line that gets the
 * node's identity in STREAMCLOUD_* variables and must print `listening <port>` once ready. It only
 * stops processes it started itself; they are all stopped when the control plane closes.
 */
export class LocalProvider implements ScalingProvider {
  readonly name = 'local' as const;
  private readonly children = new Map<string, ChildProcess>();

  constructor(
    private readonly config: LocalConfig,
    private readonly options: { controlPlaneUrl: string | null; reportIntervalSeconds?: number },
  ) {}

  async launch(spec: LaunchSpec): Promise<LaunchedInstance> {
    const env = {
      ...process.env,
      STREAMCLOUD_NODE_ID: spec.nodeId,
      STREAMCLOUD_NODE_NAME: spec.name,
      STREAMCLOUD_NODE_TOKEN: spec.token,
      STREAMCLOUD_CONTROL_PLANE_URL: this.options.controlPlaneUrl ?? '',
      STREAMCLOUD_NODE_PORT: '0',
      STREAMCLOUD_NODE_BANDWIDTH_LIMIT_MBPS: String(spec.bandwidthLimitMbps),
      ...(this.options.reportIntervalSeconds
        ? { STREAMCLOUD_REPORT_INTERVAL_SECONDS: String(this.options.reportIntervalSeconds) }
        : {}),
    };
    const child = this.config.command
      ? spawn(this.config.command, { shell: true, env, stdio: ['ignore', 'pipe', 'ignore'] })
      : spawn(process.execPath, ['--import', import.meta.resolve('tsx'), LOCAL_NODE_SCRIPT], {
          env,
          stdio: ['ignore', 'pipe', 'ignore'],
        });
    const port = await new Promise<number>((resolve, reject) => {
      let output = '';
      const fail = (message: string) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new ProviderError(message));
      };
      const timer = setTimeout(() => fail('The local node did not start within 15 s'), START_TIMEOUT_MS);
      child.once('error', (error) => fail(`The local node could not be started: ${error.message}`));
      child.once('exit', (code) => fail(`The local node exited at start (code ${code})`));
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const match = /listening (\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          child.removeAllListeners('error');
          resolve(Number(match[1]));
        }
      });
    });
    child.stdout?.resume();
    const externalId = `local-${child.pid}`;
    this.children.set(externalId, child);
    child.once('exit', () => this.children.delete(externalId));
    return {
      externalId,
      hostname: this.config.hostname,
      protocol: 'HTTP',
      port,
      publicIPv4: null,
      privateIPv4: null,
      locationDescription: 'Local machine',
    };
  }

  async terminate(externalId: string): Promise<void> {
    const child = this.children.get(externalId);
    // A process this control plane did not start (or that already ended) is left alone.
    if (!child) return;
    await stopChild(child);
    this.children.delete(externalId);
  }

  /** The processes still running, by external id (for tests and diagnostics). */
  running(): string[] {
    return [...this.children.keys()];
  }

  async close(): Promise<void> {
    await Promise.all([...this.children.values()].map(stopChild));
    this.children.clear();
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
