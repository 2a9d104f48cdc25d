import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { NodesService } from './modules/nodes/nodes.service.js';

/** The media node's entry point, run as its own process (an app never imports another app). */
const MEDIA_NODE_MAIN = fileURLToPath(new URL('../../media-node/src/main.ts', import.meta.url));
/** What the media node needs from Debian (scripts/start.mjs installs them as root). */
const MEDIA_TOOLS = [
  { path: '/usr/bin/ffmpeg', pkg: 'ffmpeg' },
  { path: '/usr/sbin/nginx', pkg: 'nginx-light' },
  { path: '/usr/lib/nginx/modules/ngx_rtmp_module.so', pkg: 'libnginx-mod-rtmp' },
];
export const LOCAL_NODE_NAME = 'local';

export interface LocalMediaNodeOptions {
  nodes: NodesService;
  /** Where the media node reaches the control plane. */
  controlPlaneUrl: string;
  hostname: string;
  port: number;
  /** Where the node keeps its recording files and their journal (RECORDINGS_DIR, unless the environment sets it). */
  recordingsDir: string;
  say: (line: string) => void;
}

/**
 * `npm start`'s embedded media node: registers (or reuses) the node named `local` on this machine,
 * enabled and opened, and runs apps/media-node with its token, restarting it if it dies. When the media
 * tools are missing it says which, and the control plane runs on without it.
 */
export async function startLocalMediaNode(options: LocalMediaNodeOptions): Promise<{ stop(): Promise<void> } | null> {
  const missing = MEDIA_TOOLS.filter((tool) => !existsSync(tool.path));
  if (missing.length > 0) {
    options.say(
      `The local media node is not started: ${missing.map((tool) => tool.path).join(', ')} missing ` +
        `(install with: apt-get install -y ${missing.map((tool) => tool.pkg).join(' ')}). Streams stay Pending until a node is available.`,
    );
    return null;
  }
  const node = await options.nodes.ensureLocalNode({
    name: LOCAL_NODE_NAME,
    hostname: options.hostname,
    port: options.port,
  });
  let child: ChildProcess | null = null;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | null = null;
  const launch = () => {
    child = spawn(process.execPath, ['--import', 'tsx', MEDIA_NODE_MAIN], {
      env: {
        ...process.env,
        CONTROL_PLANE_URL: options.controlPlaneUrl,
        NODE_TOKEN: node.token,
        NODE_PORT: String(options.port),
        NODE_HOSTNAME: options.hostname,
        RECORDINGS_DIR: process.env.RECORDINGS_DIR || options.recordingsDir,
        NODE_LOG_PREFIX: 'media-node[local]',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('exit', (code, signal) => {
      child = null;
      if (stopping) return;
      options.say(`The local media node exited (${code ?? signal}); it restarts in 5 s.`);
      restartTimer = setTimeout(launch, 5000);
    });
  };
  launch();
  options.say(
    `Local media node "${LOCAL_NODE_NAME}" on ${options.hostname}:${options.port} (RTMP, SRT, WebRTC WHIP, HLS)`,
  );
  return {
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const running = child as ChildProcess | null;
      if (!running) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    },
  };
}
