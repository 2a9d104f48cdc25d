import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { u16, u32 } from '../big-endian.js';
import { type Amf0Value, decodeAmf0, encodeAmf0 } from './amf0.js';
import { RtmpChunkReader, type RtmpMessage, SET_CHUNK_SIZE } from './chunk-reader.js';

const ACKNOWLEDGEMENT = 3;
const USER_CONTROL = 4;
const WINDOW_ACK_SIZE = 5;
export const AUDIO = 8;
export const VIDEO = 9;
const AMF0_COMMAND = 20;
/** User Control events (RTMP 7.1.7). */
const STREAM_EOF = 1;
const SET_BUFFER_LENGTH = 3;
const PING_REQUEST = 6;
const PING_RESPONSE = 7;
/** The chunk size this client sends with: every command it sends fits in one chunk. */
const OUT_CHUNK_SIZE = 4096;
const HANDSHAKE_BLOCK = 1536;
/** What the play's onStatus codes that end it cleanly say (as ffmpeg's RTMP client reads them). */
const ENDED = new Set(['NetStream.Play.Stop', 'NetStream.Play.UnpublishNotify']);

export interface RtmpPlay {
  /** Null when the server ended the play (the stream stopped), else what went wrong. */
  readonly ended: Promise<string | null>;
  stop(): Promise<void>;
}

/**
 * Plays `url` (`rtmp://host:port/app/name?query`, as nginx-rtmp takes it from ffmpeg) over a plain socket: the
 * simple handshake, `connect`, `createStream`, `play` (the name with its query: nginx's on_play hook reads it), the
 * server's chunk size, acknowledgements as its window asks and ping answers. Hands every audio and video message to
 * `onMedia`; anything it cannot read, a refused play or `onMedia` throwing ends the play with an error.
 */
export function playRtmp(url: string, onMedia: (message: RtmpMessage) => void): RtmpPlay {
  const target = new URL(url);
  const [app = '', ...rest] = target.pathname.slice(1).split('/');
  const name = rest.join('/') + target.search;
  const tcUrl = `${target.protocol}//${target.host}/${app}`;
  const socket = connect({ host: target.hostname, port: Number(target.port || 1935) });
  let finish: (failure: string | null) => void = () => {};
  const ended = new Promise<string | null>((resolve) => {
    finish = (failure) => {
      finish = () => {};
      socket.destroy();
      resolve(failure);
    };
  });
  const session = new PlaySession(socket, { app, name, tcUrl }, onMedia, (failure) => finish(failure));
  socket.on('connect', () => session.start());
  socket.on('data', (bytes: Buffer) => {
    try {
      session.read(bytes);
    } catch (error) {
      finish(error instanceof Error ? error.message : String(error));
    }
  });
  socket.on('error', (error) => finish(`RTMP play of ${target.host}: ${error.message}`));
  // A play the server closes before it began (a refused on_play hook) failed; one that ran ended cleanly.
  socket.on('close', () => finish(session.began ? null : 'RTMP play closed before it began'));
  return {
    ended,
    stop: async () => {
      finish(null);
      await ended;
    },
  };
}

interface PlayTarget {
  app: string;
  name: string;
  tcUrl: string;
}

/** One play's protocol state: the handshake, then the chunk stream's messages. */
class PlaySession {
  /** S0 + S1 + S2, read before the chunk stream begins. */
  private handshake: Buffer | null = Buffer.alloc(0);
  private readonly chunks = new RtmpChunkReader((message) => this.message(message));
  private ackWindow = 0;
  private acknowledged = 0;
  private streamId = 0;
  /** Whether the server said the play started. */
  began = false;

  constructor(
    private readonly socket: Socket,
    private readonly target: PlayTarget,
    private readonly onMedia: (message: RtmpMessage) => void,
    private readonly finish: (failure: string | null) => void,
  ) {}

  start(): void {
    // C0 (version 3) and C1 (time, zero, random): the simple handshake, which nginx-rtmp accepts from players.
    const c1 = Buffer.concat([Buffer.alloc(8), randomBytes(HANDSHAKE_BLOCK - 8)]);
    this.socket.write(Buffer.concat([Buffer.from([3]), c1]));
  }

  read(bytes: Buffer): void {
    if (this.handshake === null) {
      this.chunks.push(bytes);
      this.acknowledge();
      return;
    }
    this.handshake = Buffer.concat([this.handshake, bytes]);
    if (this.handshake.length < 1 + 2 * HANDSHAKE_BLOCK) return;
    if (this.handshake[0] !== 3) throw new Error(`RTMP handshake of version ${this.handshake[0]}`);
    const s1 = this.handshake.subarray(1, 1 + HANDSHAKE_BLOCK);
    const rest = this.handshake.subarray(1 + 2 * HANDSHAKE_BLOCK);
    this.handshake = null;
    this.socket.write(s1); // C2: S1 echoed.
    this.send(2, SET_CHUNK_SIZE, 0, u32(OUT_CHUNK_SIZE));
    const { app, tcUrl } = this.target;
    this.command(0, ['connect', 1, { app, flashVer: 'LNX 9,0,124,2', tcUrl, fpad: false, capabilities: 15 }]);
    if (rest.length > 0) this.read(rest);
  }

  /** Acknowledges what it read whenever a window's worth came since the last acknowledgement (or nginx stops). */
  private acknowledge(): void {
    const read = this.chunks.bytesRead;
    if (this.ackWindow <= 0 || read - this.acknowledged < this.ackWindow) return;
    this.acknowledged = read;
    this.send(2, ACKNOWLEDGEMENT, 0, u32(read >>> 0));
  }

  private message(message: RtmpMessage): void {
    const { type, payload } = message;
    if (type === AUDIO || type === VIDEO) this.onMedia(message);
    else if (type === WINDOW_ACK_SIZE && payload.length >= 4) this.ackWindow = payload.readUInt32BE(0);
    else if (type === USER_CONTROL && payload.length >= 6) this.userControl(payload);
    else if (type === AMF0_COMMAND) this.reply(decodeAmf0(payload));
  }

  private userControl(payload: Buffer): void {
    const event = payload.readUInt16BE(0);
    if (event === PING_REQUEST)
      this.send(2, USER_CONTROL, 0, Buffer.concat([u16(PING_RESPONSE), payload.subarray(2, 6)]));
    else if (event === STREAM_EOF && payload.readUInt32BE(2) === this.streamId && this.streamId !== 0)
      this.finish(null);
  }

  /** The server's answers: connect's and createStream's results, then the play's status. */
  private reply([command, transaction, , info]: Amf0Value[]): void {
    if (command === '_error') throw new Error(`RTMP ${transaction === 1 ? 'connect' : 'createStream'} refused`);
    if (command === '_result' && transaction === 1) this.command(0, ['createStream', 2, null]);
    else if (command === '_result' && transaction === 2) {
      if (typeof info !== 'number') throw new Error('RTMP createStream answered without a stream id');
      this.streamId = info;
      // Live (-1000, as ffmpeg's `-rtmp_live live` asks), then a buffer length as ffmpeg sends it.
      this.command(info, ['play', 0, null, this.target.name, -1000]);
      this.send(2, USER_CONTROL, 0, Buffer.concat([u16(SET_BUFFER_LENGTH), u32(info), u32(3000)]));
    } else if (command === 'onStatus' && info !== null && typeof info === 'object') {
      const { level, code } = info;
      if (level === 'error') throw new Error(`RTMP play refused: ${String(code)}`);
      if (code === 'NetStream.Play.Start') this.began = true;
      if (typeof code === 'string' && ENDED.has(code)) this.finish(null);
    }
  }

  private command(streamId: number, values: Amf0Value[]): void {
    this.send(streamId === 0 ? 3 : 8, AMF0_COMMAND, streamId, encodeAmf0(values));
  }

  /** One message, in one chunk of format 0 (its commands are shorter than OUT_CHUNK_SIZE). */
  private send(csid: number, type: number, streamId: number, payload: Buffer): void {
    if (payload.length > OUT_CHUNK_SIZE) throw new Error('an RTMP message longer than the chunk size');
    const header = Buffer.alloc(12);
    header[0] = csid;
    header.writeUIntBE(payload.length, 4, 3);
    header[7] = type;
    header.writeUInt32LE(streamId, 8);
    this.socket.write(Buffer.concat([header, payload]));
  }
}
