import type { RemoteInfo } from 'node:dgram';
import { setTimeout as delay } from 'node:timers/promises';
import { type GuardedChild, lastLine, spawnGuarded } from '../../child.js';
import { captureInputArgs, renditionsReady } from '../../pipelines/capture.js';
import { splitNameAndToken } from '../../streams/directory.js';
import type { FrontEndKind } from '../front-end.js';
import { type ListenerOptions, listenerOptions } from '../push-listener.js';
import { ACCEPT_TIMEOUT_US, watchStreamId } from './ingest.js';
import { SrtPort, type SrtSession, srtDataCopyArgs } from './port.js';

export interface SrtPlaybackOptions extends ListenerOptions {
  /** A stream name on the node's internal nginx-rtmp, for the node's own players. */
  playUrl: (name: string) => string;
}

/**
 * MPEG-TS null packets (PID 0x1FFF, which every demuxer skips): the listener's input is a pipe, and ffmpeg
 * reads a few bytes of it before it opens its output, the SRT listener, so these go first; the caller
 * learns which stream it wants only after that, in the handshake.
 */
const PREROLL = Buffer.concat(
  Array.from({ length: 7 }, () => {
    const packet = Buffer.alloc(188, 0xff);
    packet.set([0x47, 0x1f, 0xff, 0x10]);
    return packet;
  }),
);
/** SRT's latency (µs in the listener URL) and how long a caller is given to receive the last bytes (2.5 latencies). */
const LATENCY_US = 200_000;
const DRAIN_MS = (LATENCY_US / 1000) * 2.5;
/** While the push goes on, a source ffmpeg that ends (the transcoder's renditions came or went) starts again this often in a row. */
const MAX_SOURCE_RESTARTS = 3;

/**
 * SRT playback: a caller on the node's SRT playback port asks for an output by stream id
 * (`out+<uuid>`, `?token=<output token>` after it for a Private stream's output). Each caller gets its own
 * ffmpeg listener (`SrtPort`) sending MPEG-TS; once the listener has accepted it and the node has admitted
 * its stream id, an ffmpeg plays what the stream's viewers get from nginx-rtmp, copied into MPEG-TS, and
 * the node pipes that to the listener. The bytes piped are the viewer's session bytes.
 */
export function srtPlayback(o: SrtPlaybackOptions): SrtPort {
  return new SrtPort({ ...o, label: 'SRT playback', session: (from) => new SrtViewer(o, from) });
}

let viewerSeq = 0;

/** One SRT caller playing: its ffmpeg listener and, once admitted, the ffmpeg that feeds it. */
class SrtViewer implements SrtSession {
  private listener: GuardedChild | null = null;
  private source: GuardedChild | null = null;
  private viewerId: string | null = null;
  private stopped = false;

  constructor(
    private readonly o: SrtPlaybackOptions,
    private readonly from: RemoteInfo,
  ) {}

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.source?.stop(), this.listener?.stop()]);
  }

  async run(port: number): Promise<void> {
    const listener = spawnGuarded(
      this.o.ffmpeg,
      srtDataCopyArgs(
        'pipe:3',
        `srt://127.0.0.1:${port}?mode=listener&latency=${LATENCY_US}&listen_timeout=${ACCEPT_TIMEOUT_US}`,
        ['-nofind_stream_info'],
      ),
      { extraPipe: true },
    );
    this.listener = listener;
    listener.extra?.on('error', () => undefined);
    listener.extra?.write(PREROLL);
    watchStreamId(listener, (srtStreamId) => void this.admit(srtStreamId));
    await listener.exited;
    await this.source?.stop();
    if (this.viewerId) this.o.manager.viewers.end(this.viewerId);
  }

  /** Admits the caller's stream id and feeds it while the push goes on (a refused caller is let go). */
  private async admit(srtStreamId: string): Promise<void> {
    const listener = this.listener;
    const { name, token } = splitNameAndToken(srtStreamId);
    const admitted = await this.o.manager.admission.play('SRT', name, { token, address: this.from.address });
    if (!listener?.running || this.stopped) return;
    if (!admitted.ok) {
      this.o.log.info(`SRT play of ${name} from ${this.from.address} refused: ${admitted.reason}`);
      void listener.stop();
      return;
    }
    let bytesOut = PREROLL.length;
    this.viewerId = `srt-${this.from.address}:${this.from.port}-${++viewerSeq}`;
    this.o.manager.viewers.start({
      id: this.viewerId,
      streamId: admitted.assigned.id,
      outputId: admitted.outputId,
      format: 'SRT',
      ...(admitted.grant ? { grant: admitted.grant } : {}),
      ipAddress: this.from.address,
      bytesOut: () => bytesOut,
      bytesIn: () => 0,
      kick: () => void this.stop(),
    });
    this.o.log.info(`SRT viewer of ${name} connected from ${this.from.address}`);
    const streamId = admitted.assigned.id;
    for (let restarts = 0; restarts <= MAX_SOURCE_RESTARTS && listener.running && !this.stopped; restarts++) {
      const push = this.o.manager.push(streamId);
      if (!push) break;
      // An adjustable-transcode stream's viewers get its top rendition: until the ladder has one, the push
      // is not what they will get (the same wait as an Outgoing capture's).
      const going = () => listener.running && !this.stopped && this.o.manager.push(streamId) === push;
      if (!(await renditionsReady(push, going))) continue;
      const source = spawnGuarded(this.o.ffmpeg, [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'error',
        ...captureInputArgs([push.outgoing.main], this.o.playUrl, push),
        '-map',
        '0',
        '-c',
        'copy',
        '-f',
        'mpegts',
        'pipe:1',
      ]);
      this.source = source;
      let sourceLog = '';
      source.stderr.on('data', (data: Buffer) => {
        sourceLog = (sourceLog + data.toString()).slice(-4000);
      });
      source.stdout.on('data', (chunk: Buffer) => {
        bytesOut += chunk.length;
        if (listener.extra?.write(chunk) === false) {
          source.stdout.pause();
          listener.extra.once('drain', () => source.stdout.resume());
        }
      });
      const code = await source.exited;
      if (code !== 0 && listener.running && !this.stopped)
        this.o.log.info(`the SRT viewer's source of ${name} ended (${code}): ${lastLine(sourceLog)}`);
    }
    // The push is over (or its source keeps failing): the caller is let go once it has what was piped. SRT
    // holds each packet for its latency before handing it over, and a closing listener drops what it holds.
    if (listener.running && !this.stopped) {
      await delay(DRAIN_MS);
      listener.extra?.end();
      await Promise.race([listener.exited, delay(3000)]);
    }
    void listener.stop();
  }
}

/** SRT playback on the node's SRT playback port: what an output's viewers get, played from nginx-rtmp. */
export const srtPlayFrontEnd: FrontEndKind<SrtPort> = {
  name: 'srt-play',
  needs: ['nginx', 'ffmpeg'],
  port: 'srtPlayback',
  async start(context) {
    const srt = srtPlayback({ ...listenerOptions(context, 'srtPlayback'), playUrl: context.rtmpUrl });
    return { server: srt, port: await srt.start(), stop: () => srt.close() };
  },
};
