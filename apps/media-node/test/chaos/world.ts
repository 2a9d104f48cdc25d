import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamInput } from '@streamcloud/contract';
import { childProcessIds } from '@streamcloud/proc';
import type { ControlPlane, Push } from '../harness.js';
import { countingRelay, pushTestPattern, sleep } from '../harness.js';
import { uriOf } from '../streams.js';
import { startSrtCounter } from './srt-counter.js';

/** An encoder as OBS or ffmpeg in a loop runs one: it pushes, and when the push is cut it connects again a second later. */
export interface Encoder {
  stream: StreamInput;
  /** Pushes started so far (1 + reconnections). */
  readonly pushes: number;
  /**
   * What it pushed to the node over every push (the billing check's reference): RTMP's bytes both ways through a
   * counting relay in front of the node's port; SRT's media the node acknowledged (`startSrtCounter`).
   */
  bytes(): number;
  /** A WHIP encoder's publications, one by one (whip-encoder.ts). */
  sessions?: WhipSession[];
  stop(): Promise<void>;
}

/** One publication of a WHIP encoder: when the node answered it, what it sent, and how it ended. */
export interface WhipSession {
  answeredAt: number;
  bytes: number;
  /** Why it ended (null: it goes on). */
  ended: string | null;
}

export async function startEncoder(stream: StreamInput): Promise<Encoder> {
  const srt = stream.format === 'SRT';
  const uri = new URL(uriOf(stream));
  // In front of the node's port on loopback (the node, restarted, takes it again).
  const relay = srt ? null : await countingRelay(Number(uri.port));
  const counter = relay
    ? { port: relay.port, bytes: () => relay.bytes() + relay.bytesBack(), close: () => relay.close() }
    : await startSrtCounter(Number(uri.port));
  uri.port = String(counter.port);
  let stopped = false;
  let current: Push | null = null;
  let pushes = 0;
  const looping = (async () => {
    while (!stopped) {
      pushes++;
      current = pushTestPattern(uri.toString(), srt ? 'mpegts' : 'flv', 3600, { size: '160x120', rate: 10 });
      await current.exited;
      if (!stopped) await sleep(1000);
    }
  })();
  return {
    stream,
    get pushes() {
      return pushes;
    },
    bytes: () => counter.bytes(),
    async stop() {
      stopped = true;
      current?.stop();
      await looping;
      await counter.close();
    },
  };
}

/** What the API answered a client that writes all along: acknowledged writes, and every refusal by kind. */
export interface WriterLog {
  acknowledged: string[];
  /** 503 (the database is away: the contract), other 5xx (a defect), no answer (a process died mid-request). */
  unavailable: number;
  serverErrors: Array<{ status: number; body: string }>;
  noAnswer: number;
}

/**
 * Writes all along (an API key named `<prefix>-<n>` every `everyMs`), as an operator's script would, and logs
 * how each write ended: no acknowledged write may be lost, and no answer may be a 500.
 */
export function startWriter(plane: ControlPlane, prefix: string, everyMs = 500): { log: WriterLog; stop(): void } {
  const log: WriterLog = { acknowledged: [], unavailable: 0, serverErrors: [], noAnswer: 0 };
  let stopped = false;
  void (async () => {
    for (let n = 1; !stopped; n++) {
      const name = `${prefix}-${n}`;
      try {
        const response = await fetch(`${plane.url}/api/v1/api-keys`, {
          method: 'POST',
          headers: { authorization: `Bearer ${plane.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name, scope: 'read', expiresAt: null }),
          signal: AbortSignal.timeout(15_000),
        });
        const body = await response.text();
        if (response.status === 201) log.acknowledged.push(name);
        else if (response.status === 503) log.unavailable++;
        else if (response.status >= 500) log.serverErrors.push({ status: response.status, body: body.slice(0, 200) });
      } catch {
        log.noAnswer++;
      }
      await sleep(everyMs);
    }
  })();
  return {
    log,
    stop: () => {
      stopped = true;
    },
  };
}

/** The API's cluster workers (API_WORKERS): the processes under its primary. */
export const apiWorkers = (plane: ControlPlane): number[] => childProcessIds(plane.pid ?? -1);

/** The PostgreSQL server the run was given (scripts/chaos.mjs): killed without a word, and started again. */
export interface ChaosPostgres {
  kill(): void;
  start(): void;
}

export function chaosPostgres(env: NodeJS.ProcessEnv = process.env): ChaosPostgres | null {
  const dataDir = env.CHAOS_PG_DATA;
  const startCommand = env.CHAOS_PG_START ? (JSON.parse(env.CHAOS_PG_START) as [string, string[]]) : null;
  if (!dataDir || !startCommand) return null;
  return {
    kill() {
      // The postmaster's pid is the first line of its pid file; its backends die with it.
      const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
    },
    start() {
      const [command, args] = startCommand;
      const started = spawnSync(command, args, { stdio: 'ignore' });
      if (started.status !== 0) throw new Error(`PostgreSQL did not start again (${started.status})`);
    },
  };
}

/** Milliseconds, as the report shows them. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * A small disk for the node's recordings (a tmpfs: mounting needs root, as `npm test` runs), which the full-disk
 * fault fills with a file of its own and frees again. Null where no tmpfs can be mounted (the fault is then skipped
 * and the report says so).
 */
export interface SmallDisk {
  dir: string;
  /** Fills what is left of it (answers the bytes written). */
  fill(): number;
  /** Removes what `fill` wrote. */
  free(): void;
  unmount(): void;
}

export function mountSmallDisk(dir: string, megabytes: number): SmallDisk | null {
  mkdirSync(dir, { recursive: true });
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0700`, 'tmpfs', dir], {
    stdio: 'ignore',
  });
  if (mounted.status !== 0) return null;
  const filler = join(dir, 'chaos-filler');
  return {
    dir,
    fill() {
      const chunk = Buffer.alloc(1024 * 1024);
      const fd = openSync(filler, 'a');
      let written = 0;
      try {
        // Until the disk refuses (ENOSPC); a last partial write takes what bytes remain.
        for (let left = chunk; ; ) {
          const wrote = writeSync(fd, left);
          written += wrote;
          if (wrote < left.length) left = left.subarray(wrote);
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
      return written;
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      spawnSync('umount', ['-l', dir], { stdio: 'ignore' });
    },
  };
}
