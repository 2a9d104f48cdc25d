import { type ChildProcess, spawn } from 'node:child_process';
import { sleep, waitFor } from '../harness.js';

/**
 * An RTMP viewer as a player app runs one: ffmpeg plays the URL, and when the play ends (the node killed, the stream
 * gone a moment) it plays again a second later. It notes when media arrives (at most every half second), so a fault's
 * recovery is timed by the first media after it.
 */
export interface RtmpViewer {
  /** Bytes received so far, over every play. */
  readonly bytes: number;
  /** Plays started so far. */
  readonly plays: number;
  /**
   * The bytes of the plays that got media, both ways, as `counter` (a counting relay it plays through) counted them:
   * a play the node refused (the stream not there yet) exchanged a handshake and a refusal, which no one bills.
   */
  readonly billable: number;
  /** Waits for media received after `since`; answers how long from `since` the first came. */
  watching(since: number, what: string, timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}

export function startRtmpViewer(url: string, counter: { bytes(): number; bytesBack(): number }): RtmpViewer {
  const counted = () => counter.bytes() + counter.bytesBack();
  let billable = 0;
  let bytes = 0;
  let plays = 0;
  let stopped = false;
  let current: ChildProcess | null = null;
  const arrivals: number[] = [];
  const playing = (async () => {
    while (!stopped) {
      plays++;
      const before = { counted: counted(), bytes };
      // A play silent for 5 s (its node killed without a word) ends too, so the next one starts.
      const child = spawn(
        'ffmpeg',
        [
          '-hide_banner',
          '-nostdin',
          '-loglevel',
          'error',
          '-rw_timeout',
          '5000000',
          '-i',
          url,
          '-c',
          'copy',
          '-f',
          'flv',
          'pipe:1',
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      current = child;
      child.stdout?.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        const now = Date.now();
        if (now - (arrivals.at(-1) ?? 0) < 500) return;
        arrivals.push(now);
        if (arrivals.length > 1000) arrivals.shift();
      });
      await new Promise((resolve) => child.once('exit', resolve));
      // The relay's sockets close just after the player's: the play's last bytes are counted then.
      await sleep(100);
      if (bytes > before.bytes) billable += counted() - before.counted;
      if (!stopped) await sleep(1000);
    }
  })();
  return {
    get bytes() {
      return bytes;
    },
    get plays() {
      return plays;
    },
    get billable() {
      return billable;
    },
    async watching(since, what, timeoutMs) {
      const first = await waitFor(
        async () => arrivals.find((at) => at > since),
        (at) => at !== undefined,
        timeoutMs,
        `the edge's RTMP viewer getting media after ${what}`,
      );
      return (first ?? since) - since;
    },
    async close() {
      stopped = true;
      current?.kill('SIGKILL');
      await Promise.race([playing, sleep(5000)]);
    },
  };
}
