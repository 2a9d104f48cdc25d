import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import type { Logger } from '../../log.js';
import { SrtSessionMeter } from './stats.js';

/** One SRT caller's part of the node: it runs an ffmpeg listener on `listenerPort` (loopback) for that caller alone. */
export interface SrtSession {
  /** Runs until the caller is gone (or refused). */
  run(listenerPort: number): Promise<void>;
  stop(): Promise<void>;
}

export interface SrtPortOptions {
  port: number;
  bindHost: string;
  log: Logger;
  /** What the port is for, in log lines ("SRT", "SRT playback"). */
  label: string;
  /** The session of a new caller; `meter` reads its packets and RTT from the datagrams forwarded both ways. */
  session: (from: RemoteInfo, meter: SrtSessionMeter) => SrtSession;
}

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
 * A public SRT port shared by any number of callers. ffmpeg's libsrt listener takes a single caller, so
 * the node owns the port itself (UDP) and forwards each caller's datagrams, by its address, to a listener
 * of its own on a loopback port, and that listener's answers back to the caller: any number of callers
 * at once, and each caller's real address is known.
 */
export class SrtPort {
  private socket: Socket | null = null;
  private readonly callers = new Map<string, SrtCaller>();
  private closed = false;

  constructor(private readonly o: SrtPortOptions) {}

  async start(): Promise<number> {
    const socket = createSocket('udp4');
    const port = await bound(socket, this.o.port, this.o.bindHost);
    socket.on('message', (packet, from) => this.receive(packet, from));
    socket.on('error', (error) => this.o.log.error(`the ${this.o.label} port failed: ${error.message}`));
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
      const meter = new SrtSessionMeter();
      caller = new SrtCaller(this.o, this.o.session(from, meter), meter, (reply) =>
        this.socket?.send(reply, from.port, from.address),
      );
      this.callers.set(key, caller);
      void caller.ended.then(() => this.callers.delete(key));
    }
    caller.forward(packet);
  }
}

/** One caller: its loopback forwarder and its session's listener. */
class SrtCaller {
  readonly ended: Promise<void>;
  private forwarder: Socket | null = null;
  private listenerPort = 0;
  private stopped = false;

  constructor(
    private readonly o: SrtPortOptions,
    private readonly session: SrtSession,
    private readonly meter: SrtSessionMeter,
    private readonly reply: (packet: Buffer) => void,
  ) {
    this.ended = this.run().catch((error: Error) => this.o.log.error(`an ${o.label} caller failed: ${error.message}`));
  }

  /** Until the listener is up the caller's handshakes go nowhere: SRT repeats them every 250 ms. */
  forward(packet: Buffer): void {
    this.meter.fromCaller(packet);
    if (this.forwarder && this.listenerPort) this.forwarder.send(packet, this.listenerPort, '127.0.0.1');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.session.stop();
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
      const running = this.session.run(port);
      this.listenerPort = port;
      await running;
    } finally {
      this.forwarder = null;
      forwarder.close();
    }
  }
}

/**
 * ffmpeg's arguments to copy an SRT session's MPEG-TS bytes as opaque data between `input` and `output`
 * (one of them the node's loopback SRT listener): no demuxing, so nothing is re-timed or dropped.
 */
export function srtDataCopyArgs(input: string, output: string, inputOptions: readonly string[] = []): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'verbose',
    ...inputOptions,
    '-f',
    'data',
    '-i',
    input,
    '-map',
    '0',
    '-c',
    'copy',
    '-f',
    'data',
    output,
  ];
}
