import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { type GuardedChild, lastLine, spawnGuarded } from './child.js';
import { splitNameAndToken } from './inputs.js';
import type { Logger } from './log.js';
import { SrtSessionMeter } from './srt-stats.js';
import type { StreamManager } from './streams/manager.js';
import type { LiveStream } from './streams/types.js';

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
/** A caller whose listener has not accepted it by then is dropped (ffmpeg's listen_timeout, in µs). */
const ACCEPT_TIMEOUT_US = 10_000_000;

/** An SRT handshake: a control packet (top bit set) of type 0. Only a handshake opens a new caller. */
export function isSrtHandshake(packet: Buffer): boolean {
  return packet.length >= 16 && ((packet[0] ?? 0) & 0x80) !== 0 && (packet.readUInt16BE(0) & 0x7fff) === 0;
}

const bound = (socket: Socket, port: number, host: string) =>
  new Promise<number>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve(socket.address().port);
    });
  });

/** A UDP port free on loopback right now (for a listener that binds it a moment later). */
async function freeUdpPort(): Promise<number> {
  const probe = createSocket('udp4');
  const port = await bound(probe, 0, '127.0.0.1');
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * SRT ingest with ffmpeg's libsrt listener, one per caller. ffmpeg's listener takes a single caller, so
 * the node owns the public SRT port itself (UDP) and forwards each caller's datagrams, by its address, to
 * a listener of its own on a loopback port, and that listener's answers back to the caller: any number of
 * SRT pushes at once, and the caller's real address is known. The listener logs the caller's stream id
 * when it accepts; the node admits or refuses it (a refused caller is dropped by ending its ffmpeg).
 */
export class SrtIngest {
  private socket: Socket | null = null;
  private readonly callers = new Map<string, SrtCaller>();
  private closed = false;

  constructor(private readonly o: SrtOptions) {}

  async start(): Promise<number> {
    const socket = createSocket('udp4');
    const port = await bound(socket, this.o.port, this.o.bindHost);
    socket.on('message', (packet, from) => this.receive(packet, from));
    socket.on('error', (error) => this.o.log.error(`the SRT port failed: ${error.message}`));
    this.socket = socket;
    return port;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.callers.values()].map((caller) => caller.stop()));
    await new Promise<void>((resolve) => (this.socket ? this.socket.close(() => resolve()) : resolve()));
  }

  private receive(packet: Buffer, from: RemoteInfo): void {
    const key = `${from.address}:${from.port}`;
    let caller = this.callers.get(key);
    if (!caller) {
      if (this.closed || !isSrtHandshake(packet)) return;
      caller = new SrtCaller(this.o, from, (reply) => this.socket?.send(reply, from.port, from.address));
      this.callers.set(key, caller);
      void caller.ended.then(() => this.callers.delete(key));
    }
    caller.forward(packet);
  }
}

/** One caller: its loopback forwarder and its own ffmpeg listener, admitted or refused by stream id. */
class SrtCaller {
  readonly ended: Promise<void>;
  private forwarder: Socket | null = null;
  private listenerPort = 0;
  private listener: GuardedChild | null = null;
  private stopped = false;
  /** The session's packets and RTT, read from the datagrams forwarded both ways. */
  private readonly meter = new SrtSessionMeter();

  constructor(
    private readonly o: SrtOptions,
    private readonly from: RemoteInfo,
    private readonly reply: (packet: Buffer) => void,
  ) {
    this.ended = this.run().catch((error: Error) => this.o.log.error(`an SRT caller failed: ${error.message}`));
  }

  /** Until the listener is up the caller's handshakes go nowhere: SRT repeats them every 250 ms. */
  forward(packet: Buffer): void {
    this.meter.fromCaller(packet);
    if (this.forwarder && this.listenerPort) this.forwarder.send(packet, this.listenerPort, '127.0.0.1');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.listener?.stop();
    await this.ended;
  }

  private async run(): Promise<void> {
    const forwarder = createSocket('udp4');
    await bound(forwarder, 0, '127.0.0.1');
    forwarder.on('message', (packet) => {
      this.meter.fromListener(packet);
      this.reply(packet);
    });
    forwarder.on('error', () => undefined);
    this.forwarder = forwarder;
    try {
      const port = await freeUdpPort();
      if (this.stopped) return;
      await this.listen(port);
    } finally {
      this.forwarder = null;
      forwarder.close();
    }
  }

  private async listen(port: number): Promise<void> {
    const o = this.o;
    const remoteAddress = this.from.address;
    const listener = spawnGuarded(o.ffmpeg, [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'verbose',
      '-f',
      'data',
      '-i',
      `srt://127.0.0.1:${port}?mode=listener&latency=200000&listen_timeout=${ACCEPT_TIMEOUT_US}`,
      '-map',
      '0',
      '-c',
      'copy',
      '-f',
      'data',
      'pipe:1',
    ]);
    this.listener = listener;
    this.listenerPort = port;
    let log = '';
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
        ].concat(o.relayUrl(admitted.input.id)),
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
      session = o.manager.startPush(admitted.input, 'SRT', {
        rawName: admitted.input.id,
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
    else if (accepted && !kicked && code !== 0 && !this.stopped) {
      o.log.error(`the SRT listener for ${remoteAddress} ended (${code}): ${lastLine(log)}`);
    }
  }
}
