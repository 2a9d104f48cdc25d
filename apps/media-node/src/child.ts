import { type ChildProcess, spawn } from 'node:child_process';
import type { Duplex, Readable, Writable } from 'node:stream';

/**
 * A media tool (nginx, ffmpeg) run under a watchdog shell: the shell holds a pipe from this process on
 * its stdin and ends the tool (TERM, then KILL after 3 s) when that pipe closes — when `stop()` is
 * called, and also when this process dies without cleaning up (even on SIGKILL), so no tool outlives
 * its node. The tool's own stdin is /dev/null; extra pipes (fd 3 and up) reach it unchanged.
 */
export interface GuardedChild {
  readonly process: ChildProcess;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** fd 3, when asked for. */
  readonly extra: Writable | null;
  /** fd 3 and up, as many as asked for (`extraPipes`): written by the node or read from the tool. */
  readonly extras: Duplex[];
  /** Resolves with the tool's exit code (null when killed) once it has ended. */
  readonly exited: Promise<number | null>;
  readonly running: boolean;
  stop(): Promise<number | null>;
}

// An asynchronous list's stdin is /dev/null in a non-interactive shell: the pipe is kept on fd 9. The
// watcher holds none of the tool's pipes (output and extra ones): they close when the tool ends, not
// after the watcher's 3 s.
const watchdog = (extraPipes: number) =>
  [
    'exec 9<&0',
    '"$@" </dev/null 9<&- & child=$!',
    `( while read -r _ <&9; do :; done; kill -TERM $child 2>/dev/null; sleep 3; kill -KILL $child 2>/dev/null ) >/dev/null 2>&1 ${Array.from({ length: extraPipes }, (_, i) => `${3 + i}>&-`).join(' ')} &`,
    'watch=$!',
    'wait $child; code=$?',
    'kill $watch 2>/dev/null',
    'exit $code',
  ].join('\n');

export function spawnGuarded(
  command: string,
  args: string[],
  options: { extraPipe?: boolean; extraPipes?: number; cwd?: string } = {},
): GuardedChild {
  const extraPipes = options.extraPipes ?? (options.extraPipe ? 1 : 0);
  const child = spawn('sh', ['-c', watchdog(extraPipes), 'watchdog', command, ...args], {
    stdio: ['pipe', 'pipe', 'pipe', ...Array.from({ length: extraPipes }, () => 'pipe' as const)],
    cwd: options.cwd,
  });
  let running = true;
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      running = false;
      child.stdin?.destroy();
      resolve(code);
    });
    child.once('error', () => {
      running = false;
      resolve(null);
    });
  });
  child.stdin?.on('error', () => undefined);
  const extras = child.stdio.slice(3) as Duplex[];
  for (const pipe of extras) pipe.on('error', () => undefined);
  const extra = extras[0] ?? null;
  return {
    process: child,
    stdout: child.stdout as Readable,
    stderr: child.stderr as Readable,
    extra,
    extras,
    exited,
    get running() {
      return running;
    },
    stop() {
      child.stdin?.end();
      // Half-closes the extra pipes: a tool reading one sees its end, one writing to it may still finish.
      for (const pipe of extras) pipe.end();
      return exited;
    },
  };
}

/** Runs a tool to completion and answers its stdout (rejects on a non-zero exit or after `timeoutMs`). */
export function runTool(command: string, args: string[], timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 4000) err += chunk.toString();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`${command} failed (${code ?? signal}): ${lastLine(err)}`));
    });
  });
}

/** The last non-empty line of a tool's diagnostics. */
export function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? '';
}
