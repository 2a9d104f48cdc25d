/** Message header bytes of each chunk format (RTMP 5.3.1.2). */
const MESSAGE_HEADER = [11, 7, 3, 0] as const;
/** Protocol control message: the sender's chunk size changed. */
export const SET_CHUNK_SIZE = 1;
/** The largest chunk size RTMP allows (its top bit is reserved). */
const MAX_CHUNK_SIZE = 0x7fff_ffff;

/** One RTMP message, reassembled from its chunks. */
export interface RtmpMessage {
  type: number;
  streamId: number;
  /** Milliseconds (RTMP's 32-bit clock). */
  timestamp: number;
  payload: Buffer;
}

interface ChunkStream {
  timestamp: number;
  delta: number;
  length: number;
  type: number;
  streamId: number;
  extended: boolean;
  parts: Buffer[];
  remaining: number;
}

/**
 * Reassembles the messages of an RTMP chunk stream (after the handshake), as one side reads what the other sends:
 * the four chunk formats, extended timestamps, interleaved chunk streams, and the sender's Set Chunk Size (applied
 * here, then passed on like any message). Bounded: a message longer than `maxMessageBytes` is an error, and bytes are
 * only held until the chunk they belong to is whole. Throws on a stream it cannot read.
 */
export class RtmpChunkReader {
  private buffer: Buffer = Buffer.alloc(0);
  private chunkSize = 128;
  private readonly streams = new Map<number, ChunkStream>();
  /** Bytes read so far (for acknowledgements). */
  bytesRead = 0;

  constructor(
    private readonly onMessage: (message: RtmpMessage) => void,
    private readonly maxMessageBytes = 16 * 1024 * 1024,
  ) {}

  push(bytes: Buffer): void {
    this.buffer = this.buffer.length > 0 ? Buffer.concat([this.buffer, bytes]) : bytes;
    while (this.next()) {}
  }

  /** Reads one chunk from the buffer; false when it needs more bytes (or it was told to stop). */
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
    if (!known && fmt !== 0) throw new Error(`RTMP chunk stream ${csid} began without its first header`);
    const field = fmt <= 2 ? b.readUIntBE(at, 3) : 0;
    const extended = fmt <= 2 ? field === 0xffffff : (known?.extended ?? false);
    if (b.length < at + header + (extended ? 4 : 0)) return false;
    const stamp = extended ? b.readUInt32BE(at + header) : field;
    const starts = !known || known.remaining === 0;
    const length = fmt <= 1 ? b.readUIntBE(at + 3, 3) : (known?.length ?? 0);
    if (starts && length > this.maxMessageBytes)
      throw new Error(`an RTMP message of ${length} bytes is larger than the ${this.maxMessageBytes} allowed`);
    const remaining = starts ? length : (known?.remaining ?? 0);
    const size = Math.min(this.chunkSize, remaining);
    const dataAt = at + header + (extended ? 4 : 0);
    if (b.length < dataAt + size) return false;
    const stream: ChunkStream = known ?? {
      timestamp: 0,
      delta: 0,
      length,
      type: 0,
      streamId: 0,
      extended,
      parts: [],
      remaining: 0,
    };
    if (fmt <= 1) {
      stream.length = length;
      stream.type = b[at + 6] ?? 0;
    }
    if (fmt === 0) stream.streamId = b.readUInt32LE(at + 7);
    stream.extended = extended;
    if (starts) {
      // Format 0 carries the timestamp itself, 1 and 2 a delta; a message begun by format 3 repeats the last delta.
      if (fmt === 0) {
        stream.delta = 0;
        stream.timestamp = stamp;
      } else {
        if (fmt !== 3) stream.delta = stamp;
        stream.timestamp = (stream.timestamp + stream.delta) >>> 0;
      }
      stream.parts = [];
    }
    stream.remaining = remaining - size;
    stream.parts.push(b.subarray(dataAt, dataAt + size));
    this.streams.set(csid, stream);
    this.buffer = b.subarray(dataAt + size);
    this.bytesRead += dataAt + size;
    if (stream.remaining === 0) {
      const payload = stream.parts.length === 1 ? (stream.parts[0] as Buffer) : Buffer.concat(stream.parts);
      stream.parts = [];
      if (stream.type === SET_CHUNK_SIZE && payload.length >= 4) {
        const chunkSize = payload.readUInt32BE(0) & MAX_CHUNK_SIZE;
        if (chunkSize < 1) throw new Error('an RTMP chunk size of 0');
        this.chunkSize = chunkSize;
      }
      const { type, streamId, timestamp } = stream;
      this.onMessage({ type, streamId, timestamp, payload });
    }
    return this.buffer.length > 0;
  }
}
