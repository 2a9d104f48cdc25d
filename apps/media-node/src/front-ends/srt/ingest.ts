import type { RemoteInfo } from 'node:dgram';
import { type GuardedChild, lastLine, spawnGuarded } from '../../child.js';
import { splitNameAndToken } from '../../streams/directory.js';
import type { LiveStream } from '../../streams/types.js';
import type { FrontEndKind } from '../front-end.js';
import { listenerOptions, type PushListenerOptions } from '../push-listener.js';
import { SrtPort, type SrtSession, srtDataCopyArgs } from './port.js';
import type { SrtSessionMeter } from './stats.js';

export type SrtOptions = PushListenerOptions;

/** The stream id a caller sent, as ffmpeg's libsrt listener logs it when it accepts the caller. */
export const STREAM_ID = /accept streamid \[(.*)\], length \d+/;

/**
 * Reads an SRT listener's verbose log (ffmpeg names the stream id a caller asks for there, and nowhere
 * else) and calls `admit` once with that id. Gives the log's tail and whether a caller was accepted.
 */
export function watchStreamId(
  listener: GuardedChild,
  admit: (srtStreamId: string) => void,
): { log(): string; accepted(): boolean } {
  let log = '';
  let accepted = false;
  listener.stderr.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8000);
    if (accepted) return;
    const match = STREAM_ID.exec(log);
    if (!match) return;
    accepted = true;
    admit(match[1] ?? '');
  });
  return { log: () => log, accepted: () => accepted };
}
/** A caller whose listener has not accepted it by then is dropped (ffmpeg's listen_timeout, in µs). */
export const ACCEPT_TIMEOUT_US = 10_000_000;

/**
 * SRT ingest with ffmpeg's libsrt listener, one per caller on the node's SRT port (`SrtPort`). The listener
 * logs the caller's stream id when it accepts; the node admits or refuses it (a refused caller is dropped
 * by ending its ffmpeg).
 */
export function srtIngest(o: SrtOptions): SrtPort {
  return new SrtPort({ ...o, label: 'SRT', session: (from, meter) => new SrtPush(o, from, meter) });
}

/** SRT ingest on the node's SRT port: pushes relayed into nginx-rtmp. */
export const srtFrontEnd: FrontEndKind<SrtPort> = {
  name: 'srt',
  needs: ['nginx', 'ffmpeg'],
  port: 'srt',
  async start(context) {
    const srt = srtIngest({ ...listenerOptions(context, 'srt'), relayUrl: context.rtmpUrl });
    return { server: srt, port: await srt.start(), stop: () => srt.close() };
  },
};

/** One SRT caller pushing: its ffmpeg listener, admitted or refused by stream id, relayed into nginx. */
class SrtPush implements SrtSession {
  private listener: GuardedChild | null = null;
  private stopped = false;

  constructor(
    private readonly o: SrtOptions,
    private readonly from: RemoteInfo,
    /** The session's packets and RTT, read from the datagrams the port forwards both ways. */
    private readonly meter: SrtSessionMeter,
  ) {}

  async stop(): Promise<void> {
    this.stopped = true;
    await this.listener?.stop();
  }

  async run(port: number): Promise<void> {
    const o = this.o;
    const remoteAddress = this.from.address;
    const listener = spawnGuarded(
      o.ffmpeg,
      srtDataCopyArgs(
        `srt://127.0.0.1:${port}?mode=listener&latency=200000&listen_timeout=${ACCEPT_TIMEOUT_US}`,
        'pipe:1',
      ),
    );
    this.listener = listener;
    let session: LiveStream | null = null;
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
    const caller = watchStreamId(listener, (srtStreamId) => void admit(srtStreamId));
    const admit = async (srtStreamId: string) => {
      const { name, token } = splitNameAndToken(srtStreamId);
      const admitted = await o.manager.admission.push('SRT', name, token, remoteAddress);
      if (!listener.running) return;
      if (!admitted.ok) {
        o.manager.refusePush(admitted);
        kicked = true;
        void listener.stop();
        return;
      }
      relay = spawnGuarded(
        o.ffmpeg,
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
        ].concat(o.relayUrl(admitted.assigned.id)),
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
      session = o.manager.startPush(admitted.assigned, 'SRT', {
        rawName: admitted.assigned.id,
        remoteAddress,
        bytesIn: () => bytesIn,
        bytesOut: () => 0,
        kick: () => {
          kicked = true;
          void listener.stop();
        },
        transport: () => this.meter.stats(),
      });
    };

    const code = await listener.exited;
    const current = relay as GuardedChild | null;
    if (current) {
      current.extra?.end();
      // The relay drains what it was given, then ends; it is stopped if it lingers.
      await Promise.race([current.exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
      await current.stop();
    }
    if (session) o.manager.endPush(session, relayFailure ?? (bytesIn === 0 ? 'no media arrived' : null));
    else if (caller.accepted() && !kicked && code !== 0 && !this.stopped) {
      o.log.error(`the SRT listener for ${remoteAddress} ended (${code}): ${lastLine(caller.log())}`);
    }
  }
}
