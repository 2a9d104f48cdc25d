import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { type GuardedChild, lastLine, spawnGuarded } from '../../child.js';
import { freeLoopbackPort } from '../../ports.js';
import type { AssignedStream } from '../../streams/directory.js';
import type { LiveStream } from '../../streams/types.js';
import type { FrontEndKind } from '../front-end.js';
import { listenerOptions, type PushListenerOptions } from '../push-listener.js';

export type RtspOptions = PushListenerOptions;

/** A request's line and headers must fit in this before RECORD (an RTSP request and an SDP body). */
const MAX_REQUEST_BYTES = 64 * 1024;
/** How long ffmpeg's listener is given to listen, and waits for its one caller (s). */
const LISTEN_WAIT_MS = 5000;
const LISTEN_TIMEOUT_S = 10;
/** How long an admitted publisher has to get from its first request to RECORD (ms). */
const RECORD_WAIT_MS = 10_000;
/** Why a SETUP asking for UDP is refused (the stream's message; the console's connection info says the same). */
const UDP_REFUSED = 'RTSP over UDP is not taken: set the encoder to RTSP over TCP';

export interface RtspRequest {
  method: string;
  url: string;
  cseq: string;
  header: (name: string) => string | null;
  /** The request's bytes: its headers and its body (Content-Length). */
  size: number;
}

/** The request line and headers of an RTSP request, once its headers are complete; null while they are not. */
export function parseRtspRequest(data: Buffer): RtspRequest | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const [method = '', url = ''] = (lines[0] ?? '').split(' ');
  const header = (name: string): string | null => {
    const prefix = `${name.toLowerCase()}:`;
    const line = lines.find((candidate) => candidate.toLowerCase().startsWith(prefix));
    return line === undefined ? null : line.slice(prefix.length).trim();
  };
  const bodyBytes = Math.max(0, Number.parseInt(header('content-length') ?? '0', 10) || 0);
  return { method: method.toUpperCase(), url, cseq: header('cseq') ?? '0', header, size: end + 4 + bodyBytes };
}

/**
 * The first complete message at the start of `data`: an interleaved frame (`$`, channel, length) or a request
 * with its body; null while it is incomplete.
 */
export function nextRtspMessage(data: Buffer): { bytes: Buffer; request: RtspRequest | null } | null {
  if (data[0] === 0x24) {
    if (data.length < 4) return null;
    const size = 4 + data.readUInt16BE(2);
    return data.length < size ? null : { bytes: data.subarray(0, size), request: null };
  }
  const request = parseRtspRequest(data);
  if (!request || data.length < request.size) return null;
  return { bytes: data.subarray(0, request.size), request };
}

/** The stream name (the last path segment) and token (`?token=`) of an RTSP URL; null for a URL without a path. */
export function rtspNameAndToken(url: string): { name: string; token: string | null } | null {
  try {
    const parsed = new URL(url);
    const last = parsed.pathname.split('/').filter(Boolean).at(-1);
    if (!last) return null;
    return { name: decodeURIComponent(last), token: parsed.searchParams.get('token') };
  } catch {
    return null;
  }
}

const answer = (status: string, cseq: string) => `RTSP/1.0 ${status}\r\nCSeq: ${cseq}\r\n\r\n`;

/**
 * RTSP ingest (ANNOUNCE/RECORD, RTP interleaved over the RTSP TCP connection): `rtsp://host:RTSP_PORT/live/
 * <name>` (`?token=` for a private stream). ffmpeg's RTSP listener takes one publisher and knows nothing of
 * streams, so the node owns the port: it reads a connection's first request (OPTIONS or ANNOUNCE, both
 * carry the URL), admits or refuses the name and token (refused: an RTSP error answer, then the connection
 * closes), and for an admitted push starts an ffmpeg listener on a loopback port and relays both ways,
 * counting the publisher's bytes; the listener remuxes into nginx-rtmp; the push starts at RECORD. Until
 * then the node reads the publisher's requests: a SETUP asking for UDP is answered 461 Unsupported Transport
 * and the connection closed (the RTP would bypass the node's count, and the listener's fixed UDP ports would
 * clash between pushes; swallowing the SETUP so the client retries over TCP breaks the listener's CSeq order).
 */
export class RtspIngest {
  private server: Server | null = null;
  private readonly sessions = new Set<() => void>();
  /** Streams whose admitted push has not reached RECORD yet: a second push meanwhile is refused. */
  private readonly starting = new Set<string>();

  constructor(private readonly o: RtspOptions) {}

  listen(): Promise<number> {
    const server = createServer((socket) => void this.accept(socket));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port, this.o.bindHost, () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : this.o.port);
      });
    });
  }

  async close(): Promise<void> {
    for (const end of this.sessions) end();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async accept(client: Socket): Promise<void> {
    const remoteAddress = (client.remoteAddress ?? '').replace(/^::ffff:/, '') || null;
    client.setNoDelay(true);
    client.on('error', () => undefined);
    let head = Buffer.alloc(0);
    const request = await new Promise<RtspRequest | null>((resolve) => {
      const onData = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        const parsed = parseRtspRequest(head);
        if (parsed || head.length > MAX_REQUEST_BYTES) {
          client.off('data', onData);
          client.pause();
          resolve(parsed);
        }
      };
      client.on('data', onData);
      client.once('close', () => resolve(null));
    });
    if (!request || client.destroyed) return void client.destroy();
    const refuse = (status: string) => void client.end(answer(status, request.cseq));
    const target = rtspNameAndToken(request.url);
    if (!target) return refuse('404 Not Found');
    if (request.method !== 'OPTIONS' && request.method !== 'ANNOUNCE') return refuse('405 Method Not Allowed');
    const admitted = await this.o.manager.admission.push('RTSP', target.name, target.token, remoteAddress);
    if (client.destroyed) return;
    if (!admitted.ok) {
      this.o.manager.refusePush(admitted);
      return refuse(admitted.assigned ? '403 Forbidden' : '404 Not Found');
    }
    if (this.starting.has(admitted.assigned.id)) {
      this.refused(admitted.assigned, remoteAddress, 'the stream is already being pushed');
      return refuse('403 Forbidden');
    }
    this.starting.add(admitted.assigned.id);
    try {
      await this.relay(client, head, admitted.assigned, remoteAddress);
    } finally {
      this.starting.delete(admitted.assigned.id);
    }
  }

  /** Tells the stream a push was refused after admission, in the words admission uses. */
  private refused(assigned: AssignedStream, remoteAddress: string | null, why: string): void {
    const from = remoteAddress ? ` from ${remoteAddress}` : '';
    this.o.manager.refusePush({ ok: false, assigned, reason: `Push${from} refused: ${why}` });
  }

  /** An admitted publisher: its ffmpeg listener, the relay to it, and the push while it lasts. */
  private async relay(client: Socket, head: Buffer, assigned: AssignedStream, remoteAddress: string | null) {
    const o = this.o;
    const port = await freeLoopbackPort();
    // The listener answers any path; the publisher's own URL (and its token) stays off the command line.
    const listener: GuardedChild = spawnGuarded(o.ffmpeg, [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-listen_timeout',
      String(LISTEN_TIMEOUT_S),
      '-i',
      `rtsp://127.0.0.1:${port}/live/${assigned.id}`,
      '-map',
      '0',
      '-c',
      'copy',
      '-f',
      'flv',
      o.relayUrl(assigned.id),
    ]);
    let log = '';
    listener.stderr.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    const upstream = await connectWhenListening(port, listener);
    if (!upstream || client.destroyed) {
      upstream?.destroy();
      client.destroy();
      await listener.stop();
      if (!upstream) o.log.error(`the RTSP listener did not start: ${lastLine(log)}`);
      return;
    }
    let bytesIn = 0;
    let bytesOut = 0;
    let kicked = false;
    let session: LiveStream | null = null;
    let refusal: string | null = null;
    const end = () => {
      client.destroy();
      upstream.destroy();
      void listener.stop();
    };
    this.sessions.add(end);
    // A publisher that never gets to RECORD is let go (the listener would wait for it).
    const recordTimer = setTimeout(() => {
      refusal = 'no RECORD came';
      end();
    }, RECORD_WAIT_MS);
    upstream.setNoDelay(true);
    const forward = (bytes: Buffer) => {
      if (!upstream.write(bytes)) client.pause();
    };
    const startRecording = () => {
      clearTimeout(recordTimer);
      this.starting.delete(assigned.id);
      session = o.manager.startPush(assigned, 'RTSP', {
        rawName: assigned.id,
        remoteAddress,
        bytesIn: () => bytesIn,
        bytesOut: () => bytesOut,
        kick: () => {
          kicked = true;
          end();
        },
      });
    };
    // Until RECORD the publisher's bytes are read request by request (to refuse UDP); then passed through.
    let pending: Buffer = Buffer.alloc(0);
    const fromClient = (chunk: Buffer) => {
      bytesIn += chunk.length;
      if (session) return forward(chunk);
      pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      for (let message = nextRtspMessage(pending); message; message = nextRtspMessage(pending)) {
        pending = pending.subarray(message.bytes.length);
        const { request } = message;
        if (request?.method === 'SETUP' && !/\/TCP/i.test(request.header('transport') ?? '')) {
          refusal = UDP_REFUSED;
          client.end(answer('461 Unsupported Transport', request.cseq));
          return end();
        }
        forward(message.bytes);
        if (request?.method === 'RECORD') {
          startRecording();
          if (pending.length > 0) forward(pending);
          pending = Buffer.alloc(0);
          return;
        }
      }
      if (pending.length > MAX_REQUEST_BYTES) end();
    };
    client.on('data', fromClient);
    upstream.on('data', (chunk: Buffer) => {
      bytesOut += chunk.length;
      if (!client.write(chunk)) upstream.pause();
    });
    upstream.on('drain', () => client.resume());
    client.on('drain', () => upstream.resume());
    upstream.on('error', () => undefined);
    // The publisher leaving ends the push as it does on RTMP: the listener is let flush what it got.
    let publisherLeft = false;
    client.once('close', () => {
      publisherLeft = true;
      upstream.end();
      setTimeout(end, LISTEN_WAIT_MS).unref();
    });
    upstream.once('close', end);
    fromClient(head);
    client.resume();
    const code = await listener.exited;
    clearTimeout(recordTimer);
    end();
    this.sessions.delete(end);
    if (!session) {
      if (refusal) this.refused(assigned, remoteAddress, refusal);
      return;
    }
    const failure =
      kicked || publisherLeft || code === 0 || code === null
        ? null
        : `relaying the RTSP push failed: ${lastLine(log) || `ffmpeg exited with ${code}`}`;
    o.manager.endPush(session, failure);
  }
}

/** A connection to ffmpeg's listener on `port` once it listens; null if it ends or never listens. */
async function connectWhenListening(port: number, listener: GuardedChild): Promise<Socket | null> {
  const deadline = Date.now() + LISTEN_WAIT_MS;
  while (listener.running && Date.now() < deadline) {
    const socket = await new Promise<Socket | null>((resolve) => {
      const attempt = createConnection({ host: '127.0.0.1', port });
      attempt.once('connect', () => resolve(attempt));
      attempt.once('error', () => resolve(null));
    });
    if (socket) return socket;
    await delay(50);
  }
  return null;
}

/** RTSP ingest on the node's RTSP port: pushes relayed into nginx-rtmp. */
export const rtspFrontEnd: FrontEndKind<RtspIngest> = {
  name: 'rtsp',
  needs: ['nginx', 'ffmpeg'],
  port: 'rtsp',
  async start(context) {
    const rtsp = new RtspIngest({ ...listenerOptions(context, 'rtsp'), relayUrl: context.rtmpUrl });
    return { server: rtsp, port: await rtsp.listen(), stop: () => rtsp.close() };
  },
};
