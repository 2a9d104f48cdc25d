/**
 * Big-endian bits and Exp-Golomb codes (H.264 9.1) of a codec's headers: an H.264 SPS (media-probe/h264.ts), an AAC
 * AudioSpecificConfig (ll-hls/remux/codec-config.ts). Reading past the end throws a RangeError.
 */
export class BitReader {
  private at = 0;

  constructor(private readonly data: Buffer) {}

  read(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) {
      const byte = this.data[this.at >> 3];
      if (byte === undefined) throw new RangeError('a codec header cut short');
      value = value * 2 + ((byte >> (7 - (this.at & 7))) & 1);
      this.at++;
    }
    return value;
  }

  flag(): boolean {
    return this.read(1) === 1;
  }

  ue(): number {
    let zeros = 0;
    while (this.read(1) === 0) if (++zeros > 31) throw new RangeError('an Exp-Golomb code longer than 32 bits');
    return 2 ** zeros - 1 + this.read(zeros);
  }

  se(): number {
    const code = this.ue();
    return code % 2 === 1 ? (code + 1) / 2 : -code / 2;
  }
}
