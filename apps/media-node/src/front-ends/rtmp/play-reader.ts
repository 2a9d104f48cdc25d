import { RtmpChunkReader } from '../../rtmp-play/chunk-reader.js';

/** What a client sends before its chunk stream: C0 (1 byte), C1 and C2 (1536 bytes each). */
const HANDSHAKE_BYTES = 1 + 1536 + 1536;
/** A client's commands (connect, createStream, play or publish) come first; past this, nothing more is read. */
const READ_LIMIT = 64 * 1024;
const AMF3_COMMAND = 17;
const AMF0_COMMAND = 20;

/**
 * The stream name of a client's RTMP `play` command, read from the bytes it sends on their way to nginx-rtmp
 * (nothing is changed; parsing stops at its first `play` or `publish`, or after 64 KB). nginx-rtmp keeps at most
 * 255 bytes of a play's name with its `?query`, which cuts a signed playback token (a JWT of 250 bytes or more,
 * issue 34): the node takes the token from here, the name nginx reports being the same play's.
 */
export class RtmpPlayReader {
  private skip = HANDSHAKE_BYTES;
  private readonly chunks = new RtmpChunkReader(({ type, payload }) => this.message(type, payload), READ_LIMIT);
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
    try {
      this.chunks.push(bytes);
    } catch {
      // Not RTMP as this reader knows it: the node falls back to what nginx reports.
      this.done = true;
    }
    if (this.chunks.bytesRead > READ_LIMIT) this.done = true;
  }

  private message(type: number, payload: Buffer): void {
    if (this.done) return;
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
