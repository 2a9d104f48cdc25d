import { createSocket, type Socket } from 'node:dgram';
import type { AddressPolicy } from '@streamcloud/net-guard';
import { blocked } from './outbound.js';
import type { RelaySource, RelayTarget, TargetRun } from './target.js';
import { copyTracks, drained, ffmpegEnded, RelayFailure, relayFfmpeg } from './target.js';

/** Seven 188-byte MPEG-TS packets: the payload of every datagram (the usual size for TS over UDP). */
export const UDP_PAYLOAD = 1316;
const TS_PACKET = 188;
/** Multicast datagrams cross this many routers (ffmpeg's default too). */
const MULTICAST_TTL = 16;

const isMulticast = (address: string) => {
  const first = Number(address.split('.')[0]);
  return first >= 224 && first <= 239;
};

/**
 * UDP MPEG-TS: ffmpeg muxes the captured tracks (copied) into MPEG-TS on its stdout and the node sends it
 * to ipAddress:port in datagrams of 1316 bytes (seven TS packets), counting their payload.
 */
export class UdpTarget implements RelayTarget {
  readonly label: string;
  readonly needsTracks = false;

  constructor(
    private readonly output: { ipAddress: string; port: number },
    policy: AddressPolicy,
  ) {
    this.label = `udp://${output.ipAddress}:${output.port}`;
    if (!policy.allows(output.ipAddress)) throw blocked(output.ipAddress);
  }

  run(source: RelaySource, flowing: () => void): TargetRun {
    return new UdpRun(source, this.output, flowing);
  }
}

class UdpRun implements TargetRun {
  readonly ended: Promise<RelayFailure | null>;
  private readonly socket: Socket;
  private pending: Buffer = Buffer.alloc(0);
  private sent = 0;
  /** The latest send: datagrams go out in order, so when it is done all are. */
  private sending: Promise<void> = Promise.resolve();
  private failure: RelayFailure | null = null;
  private stopping = false;
  private readonly child: ReturnType<typeof relayFfmpeg>['child'];

  constructor(
    source: RelaySource,
    private readonly output: { ipAddress: string; port: number },
    flowing: () => void,
  ) {
    this.socket = createSocket('udp4');
    this.socket.on('error', (error) =>
      this.fail(new RelayFailure(`sending to ${this.where} failed (${error.message})`, 'target')),
    );
    if (isMulticast(output.ipAddress)) this.socket.bind(0, () => this.socket.setMulticastTTL(MULTICAST_TTL));
    const { child, log } = relayFfmpeg(source, [...copyTracks(source.tracks), '-f', 'mpegts', 'pipe:1']);
    this.child = child;
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (!started) {
        started = true;
        flowing();
      }
      this.take(chunk);
    });
    this.ended = new Promise((resolve) => {
      void child.exited.then(async (code) => {
        // Whatever ffmpeg wrote last (whole TS packets) goes out in one last, shorter datagram.
        await drained(child.stdout);
        this.flush(true);
        await this.sending;
        await new Promise<void>((done) => this.socket.close(() => done()));
        resolve(this.stopping ? null : (this.failure ?? ffmpegEnded(code, log, started)));
      });
    });
  }

  private get where(): string {
    return `${this.output.ipAddress}:${this.output.port}`;
  }

  bytesOut(): number {
    return this.sent;
  }

  bytesIn(): number {
    return 0;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.child.stop();
    await this.ended;
  }

  private take(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    this.flush(false);
  }

  private flush(all: boolean): void {
    let offset = 0;
    while (this.pending.length - offset >= UDP_PAYLOAD) {
      this.send(this.pending.subarray(offset, offset + UDP_PAYLOAD));
      offset += UDP_PAYLOAD;
    }
    const rest = this.pending.length - offset;
    if (all && rest >= TS_PACKET) {
      this.send(this.pending.subarray(offset, offset + rest - (rest % TS_PACKET)));
      offset = this.pending.length;
    }
    this.pending = this.pending.subarray(offset);
  }

  private send(datagram: Buffer): void {
    if (this.failure) return;
    this.sent += datagram.length;
    this.sending = new Promise((done) =>
      this.socket.send(datagram, this.output.port, this.output.ipAddress, (error) => {
        if (error) this.fail(new RelayFailure(`sending to ${this.where} failed (${error.message})`, 'target'));
        done();
      }),
    );
  }

  private fail(failure: RelayFailure): void {
    if (this.failure || this.stopping) return;
    this.failure = failure;
    void this.child.stop();
  }
}
