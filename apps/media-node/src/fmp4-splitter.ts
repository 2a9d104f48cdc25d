/** A CMAF object of one track: its header (ftyp + moov) or one segment (prft, moof, mdat…). */
export interface CmafObject {
  kind: 'header' | 'segment';
  data: Buffer;
}

/**
 * Cuts a fragmented MP4 byte stream (as ffmpeg's mp4 muxer writes it with empty_moov) into CMAF objects:
 * the header is every box up to the moov; a segment is every box from the one after the previous mdat up
 * to and including its mdat (styp, prft, moof, mdat). Reads top-level box headers only.
 */
export class Fmp4Splitter {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  /** Boxes of the object being gathered. */
  private boxes: Buffer[] = [];
  private headerDone = false;

  constructor(
    private readonly emit: (object: CmafObject) => void,
    /** A box larger than this is an error (its bytes would otherwise be held until it completes). */
    private readonly maxBoxBytes = 64 * 1024 * 1024,
  ) {}

  push(chunk: Buffer): void {
    this.buffered.push(chunk);
    this.bufferedBytes += chunk.length;
    for (;;) {
      const size = this.nextBoxSize();
      if (size !== null && size > this.maxBoxBytes)
        throw new Error(`an MP4 box of ${size} bytes is larger than the ${this.maxBoxBytes} bytes allowed`);
      if (size === null || this.bufferedBytes < size) return;
      const box = this.take(size);
      this.boxes.push(box);
      const type = box.toString('latin1', 4, 8);
      if (!this.headerDone && type === 'moov') {
        this.headerDone = true;
        this.emit({ kind: 'header', data: this.takeBoxes() });
      } else if (this.headerDone && type === 'mdat') {
        this.emit({ kind: 'segment', data: this.takeBoxes() });
      }
    }
  }

  /** The size of the next box once its header is in, else null; a box of size 0 or below 8 is an error. */
  private nextBoxSize(): number | null {
    if (this.bufferedBytes < 8) return null;
    const head = this.peek(16);
    const size = head.readUInt32BE(0);
    if (size === 1) {
      if (head.length < 16) return null;
      return Number(head.readBigUInt64BE(8));
    }
    if (size < 8) throw new Error(`an MP4 box of size ${size} cannot be streamed`);
    return size;
  }

  private peek(bytes: number): Buffer {
    if (this.buffered[0] && this.buffered[0].length >= Math.min(bytes, this.bufferedBytes))
      return this.buffered[0].subarray(0, bytes);
    return Buffer.concat(this.buffered).subarray(0, bytes);
  }

  private take(bytes: number): Buffer {
    const all = this.buffered.length === 1 ? (this.buffered[0] as Buffer) : Buffer.concat(this.buffered);
    const box = all.subarray(0, bytes);
    const rest = all.subarray(bytes);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.bufferedBytes = rest.length;
    return box;
  }

  private takeBoxes(): Buffer {
    const data = Buffer.concat(this.boxes);
    this.boxes = [];
    return data;
  }
}
