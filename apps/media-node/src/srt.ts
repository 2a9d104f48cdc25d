import { type GuardedChild, lastLine, spawnGuarded } from './child.js';
import { splitNameAndToken } from './inputs.js';
import type { Logger } from './log.js';
import type { PublishSession, StreamManager } from './streams.js';

export interface SrtOptions {
  ffmpeg: string;
  port: number;
  bindHost: string;
  manager: StreamManager;
  log: Logger;
  /** Where an admitted push is relayed to (nginx-rtmp, under the input id). */
  relayUrl: (inputId: string) => string;
}

const STREAM_ID = /accept streamid \[(.*)\], length \d+/;

/**
 * SRT ingest with ffmpeg's libsrt listener: one ffmpeg listens on the SRT port and logs the caller's
 * stream id when it accepts; the node admits or refuses it (a refused caller is dropped by ending that
 * ffmpeg). An admitted push is read as raw bytes (counted exactly for billing) and piped into a second
 * ffmpeg that remuxes the MPEG-TS to RTMP into nginx, which packages HLS and serves players like any
 * RTMP push. ffmpeg's listener takes one caller at a time: the port takes one SRT push at a time, and
 * listens again as soon as that push ends.
 */
export class SrtIngest {
  private listener: GuardedChild | null = null;
  private closed = false;
  private port = 0;

  constructor(private readonly o: SrtOptions) {}

  async start(): Promise<number> {
    this.port = this.o.port;
    this.listen();
    return this.port;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.stop();
  }

  private listen(): void {
    if (this.closed) return;
    const host = this.o.bindHost === '0.0.0.0' ? '0.0.0.0' : this.o.bindHost;
    const listener = spawnGuarded(this.o.ffmpeg, [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'verbose',
      '-f',
      'data',
      '-i',
      `srt://${host}:${this.port}?mode=listener&latency=200000`,
      '-map',
      '0',
      '-c',
      'copy',
      '-f',
      'data',
      'pipe:1',
    ]);
    this.listener = listener;
    let log = '';
    let session: PublishSession | null = null;
    let relay: GuardedChild | null = null;
    let bytesIn = 0;
    let kicked = false;
    let relayFailure: string | null = null;
    const pending: Buffer[] = [];

    listener.stdout.on('data', (chunk: Buffer) => {
      bytesIn += chunk.length;
      if (relay?.extra) relay.extra.write(chunk);
      else if (!session) pending.push(chunk);
    });
    let accepted = false;
    listener.stderr.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-8000);
      if (accepted) return;
      const match = STREAM_ID.exec(log);
      if (!match) return;
      accepted = true;
      void admit(match[1] ?? '');
    });
    const admit = async (streamId: string) => {
      const { name, token } = splitNameAndToken(streamId);
      const admitted = await this.o.manager.admitPush('SRT', name, token, null);
      if (!listener.running) return;
      if (!admitted.ok) {
        this.o.manager.refusePush(admitted);
        kicked = true;
        void listener.stop();
        return;
      }
      relay = spawnGuarded(
        this.o.ffmpeg,
        [
          '-hide_banner',
          '-nostdin',
          '-loglevel',
          'error',
          '-f',
          'mpegts',
          '-i',
          'pipe:3',
          '-c',
          'copy',
          '-f',
          'flv',
          this.o.relayUrl(admitted.input.id),
        ],
        { extraPipe: true },
      );
      let relayLog = '';
      relay.stderr.on('data', (data: Buffer) => {
        relayLog = (relayLog + data.toString()).slice(-4000);
      });
      const thisRelay = relay;
      void relay.exited.then((code) => {
        if (code !== 0 && !kicked && listener.running) {
          relayFailure = `relaying the SRT push failed: ${lastLine(relayLog) || `ffmpeg exited with ${code}`}`;
          void listener.stop();
        }
        if (thisRelay === relay) relay = null;
      });
      for (const buffered of pending.splice(0)) relay.extra?.write(buffered);
      session = this.o.manager.startPush(admitted.input, 'SRT', {
        rawName: admitted.input.id,
        remoteAddress: null,
        bytesIn: () => bytesIn,
        bytesOut: () => 0,
        kick: () => {
          kicked = true;
          void listener.stop();
        },
      });
    };
    void listener.exited.then(async (code) => {
      const current = relay;
      if (current) {
        current.extra?.end();
        // The relay drains what it was given, then ends; it is stopped if it lingers.
        await Promise.race([current.exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
        await current.stop();
      }
      if (session) this.o.manager.endPush(session, relayFailure ?? (bytesIn === 0 ? 'no media arrived' : null));
      else if (!kicked && code !== 0 && !this.closed) {
        this.o.log.error(`the SRT listener ended (${code}): ${lastLine(log)}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      if (this.listener === listener) this.listen();
    });
  }
}
