/** What a client sends before its chunk stream: C0 (1 byte), C1 and C2 (1536 bytes each). */
const HANDSHAKE_BYTES = 1 + 1536 + 1536;
/** A client's commands (connect, createStream, play or publish) come first; past this, nothing more is read. */
const READ_LIMIT = 64 * 1024;
/** Message header bytes of each chunk format (RTMP 5.3.1.2). */
const MESSAGE_HEADER = [11, 7, 3, 0] as const;
const SET_CHUNK_SIZE = 1;
const AMF3_COMMAND = 17;
const AMF0_COMMAND = 20;

interface ChunkStream {
  length: number;
  type: number;
  extended: boolean;
  parts: Buffer[];
  remaining: number;
}

/**
 * The stream name of a client's RTMP `play` command, read from the bytes it sends on their way to nginx-rtmp
 * (nothing is changed; parsing stops at its first `play` or `publish`, or after 64 KB). nginx-rtmp keeps at most
 * 255 bytes of a play's name with its `?query`, which cuts a signed playback token (a JWT of 250 bytes or more,
 * issue 34): the node takes the token from here, the name nginx reports being the same play's.
 */
export class RtmpPlayReader {
  private skip = HANDSHAKE_BYTES;
  private buffer: Buffer = Buffer.alloc(0);
  private chunkSize = 128;
  private readonly streams = new Map<number, ChunkStream>();
  private read = 0;
  private done = false;
  /** The name (with its `?query`) of the client's `play` command, once it sent one. */
  playName: string | null = null;

  /** Bytes the client sent, in order. */
  push(chunk: Buffer): void {
    if (this.done) return;
    let bytes = chunk;
    if (this.skip > 0) {
      const skipped = Math.min(this.skip, bytes.length);
      this.skip -= skipped;
      bytes = bytes.subarray(skipped);
      if (bytes.length === 0) return;
    }
    this.buffer = this.buffer.length > 0 ? Buffer.concat([this.buffer, bytes]) : bytes;
    try {
      while (!this.done && this.next()) {}
    } catch {
      // Not RTMP as this reader knows it: the node falls back to what nginx reports.
      this.done = true;
    }
    if (this.read > READ_LIMIT) this.done = true;
    if (this.done) this.buffer = Buffer.alloc(0);
  }

  /** Reads one chunk from the buffer; false when it needs more bytes. */
  private next(): boolean {
    const b = this.buffer;
    if (b.length < 1) return false;
    const first = b[0] ?? 0;
    const fmt = first >> 6;
    let csid = first & 0x3f;
    let at = 1;
    if (csid === 0) {
      if (b.length < 2) return false;
      csid = 64 + (b[1] ?? 0);
      at = 2;
    } else if (csid === 1) {
      if (b.length < 3) return false;
      csid = 64 + (b[1] ?? 0) + (b[2] ?? 0) * 256;
      at = 3;
    }
    const header = MESSAGE_HEADER[fmt as 0 | 1 | 2 | 3];
    if (b.length < at + header) return false;
    const known = this.streams.get(csid);
    // A chunk stream starts with a full header (type 0): anything else is not RTMP as this reader knows it.
    if (!known && fmt !== 0) throw new Error('a chunk stream without its first header');
    const timestamp = fmt <= 2 ? b.readUIntBE(at, 3) : 0;
    const length = fmt <= 1 ? b.readUIntBE(at + 3, 3) : (known?.length ?? 0);
    const type = fmt <= 1 ? (b[at + 6] ?? 0) : (known?.type ?? 0);
    const extended = fmt <= 2 ? timestamp === 0xffffff : (known?.extended ?? false);
    at += header + (extended ? 4 : 0);
    const starts = !known || known.remaining === 0;
    const remaining = starts ? length : (known?.remaining ?? 0);
    const size = Math.min(this.chunkSize, remaining);
    if (b.length < at + size) return false;
    const stream: ChunkStream = known ?? { length, type, extended, parts: [], remaining: 0 };
    Object.assign(stream, { length, type, extended, remaining: remaining - size });
    if (starts) stream.parts = [];
    stream.parts.push(b.subarray(at, at + size));
    this.streams.set(csid, stream);
    this.buffer = b.subarray(at + size);
    this.read += at + size;
    if (stream.remaining === 0) this.message(type, Buffer.concat(stream.parts));
    return true;
  }

  private message(type: number, payload: Buffer): void {
    if (type === SET_CHUNK_SIZE && payload.length >= 4) {
      this.chunkSize = payload.readUInt32BE(0) & 0x7fffffff;
      if (this.chunkSize < 1) this.done = true;
      return;
    }
    if (type !== AMF0_COMMAND && type !== AMF3_COMMAND) return;
    const amf = new Amf0(payload, type === AMF3_COMMAND ? 1 : 0);
    const command = amf.string();
    if (command === 'publish') this.done = true;
    if (command !== 'play') return;
    amf.skipNumber();
    amf.skipNull();
    this.playName = amf.string();
    this.done = true;
  }
}

/** The few AMF0 values a command starts with: its name, transaction id, a null command object, a string. */
class Amf0 {
  constructor(
    private readonly data: Buffer,
    private at: number,
  ) {}

  string(): string | null {
    if (this.data[this.at] !== 0x02 || this.data.length < this.at + 3) return null;
    const length = this.data.readUInt16BE(this.at + 1);
    const start = this.at + 3;
    this.at = start + length;
    return this.data.subarray(start, start + length).toString('utf8');
  }

  skipNumber(): void {
    if (this.data[this.at] === 0x00) this.at += 9;
  }

  skipNull(): void {
    if (this.data[this.at] === 0x05) this.at += 1;
  }
}
