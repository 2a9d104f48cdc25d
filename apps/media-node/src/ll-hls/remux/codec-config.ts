/**
 * What the remuxer reads from the codecs' configurations (FLV sequence headers): an H.264 decoder configuration's
 * picture size (from its first SPS) and an AAC AudioSpecificConfig's sample rate and channels.
 */

/** MPEG-4 audio's sampling frequency indexes (ISO/IEC 14496-3 1.6.3.4). */
const SAMPLE_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

export function audioConfig(asc: Buffer): { sampleRate: number; channels: number } {
  if (asc.length < 2) throw new Error('an AAC sequence header without its AudioSpecificConfig');
  const bits = new BitReader(asc);
  let objectType = bits.read(5);
  if (objectType === 31) objectType = 32 + bits.read(6);
  const index = bits.read(4);
  const sampleRate = index === 15 ? bits.read(24) : SAMPLE_RATES[index];
  const channels = bits.read(4);
  if (!sampleRate) throw new Error(`an AAC sampling frequency index of ${index}`);
  return { sampleRate, channels };
}

/** The picture size an AVCDecoderConfigurationRecord's first SPS gives (its cropping applied). */
export function videoSize(avcC: Buffer): { width: number; height: number } {
  if (avcC.length < 8 || avcC[0] !== 1 || ((avcC[5] ?? 0) & 0x1f) < 1)
    throw new Error('an H.264 sequence header without a decoder configuration and an SPS');
  const length = avcC.readUInt16BE(6);
  if (avcC.length < 8 + length) throw new Error('an H.264 SPS cut short');
  return spsSize(withoutEmulationPrevention(avcC.subarray(8, 8 + length)));
}

/** The NAL unit's payload without its emulation prevention bytes (00 00 03 → 00 00). */
function withoutEmulationPrevention(nal: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < nal.length; i++) {
    if (i >= 2 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0) continue;
    out.push(nal[i] ?? 0);
  }
  return Buffer.from(out);
}

/** Profiles whose SPS carries chroma format, bit depths and scaling matrices (H.264 7.3.2.1.1). */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

function spsSize(sps: Buffer): { width: number; height: number } {
  const bits = new BitReader(sps.subarray(1));
  const profile = bits.read(8);
  bits.read(16); // constraint flags, level
  bits.ue(); // seq_parameter_set_id
  let chromaFormat = 1;
  if (HIGH_PROFILES.has(profile)) {
    chromaFormat = bits.ue();
    if (chromaFormat === 3) bits.read(1);
    bits.ue();
    bits.ue();
    bits.read(1);
    if (bits.read(1)) {
      for (let i = 0; i < (chromaFormat === 3 ? 12 : 8); i++) if (bits.read(1)) skipScalingList(bits, i < 6 ? 16 : 64);
    }
  }
  bits.ue(); // log2_max_frame_num_minus4
  const pocType = bits.ue();
  if (pocType === 0) bits.ue();
  else if (pocType === 1) {
    bits.read(1);
    bits.se();
    bits.se();
    const cycle = bits.ue();
    for (let i = 0; i < cycle; i++) bits.se();
  }
  bits.ue(); // max_num_ref_frames
  bits.read(1);
  const widthMbs = bits.ue() + 1;
  const heightUnits = bits.ue() + 1;
  const frameMbsOnly = bits.read(1);
  if (!frameMbsOnly) bits.read(1);
  bits.read(1);
  let crop = [0, 0, 0, 0];
  if (bits.read(1)) crop = [bits.ue(), bits.ue(), bits.ue(), bits.ue()];
  const [left = 0, right = 0, top = 0, bottom = 0] = crop;
  const cropX = chromaFormat === 1 || chromaFormat === 2 ? 2 : 1;
  const cropY = (chromaFormat === 1 ? 2 : 1) * (2 - frameMbsOnly);
  return {
    width: widthMbs * 16 - cropX * (left + right),
    height: (2 - frameMbsOnly) * heightUnits * 16 - cropY * (top + bottom),
  };
}

function skipScalingList(bits: BitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let i = 0; i < size; i++) {
    if (next !== 0) next = (last + bits.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}

/** Big-endian bits, Exp-Golomb codes; throws past the end. */
class BitReader {
  private at = 0;

  constructor(private readonly data: Buffer) {}

  read(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) {
      const byte = this.data[this.at >> 3];
      if (byte === undefined) throw new Error('a codec configuration cut short');
      value = value * 2 + ((byte >> (7 - (this.at & 7))) & 1);
      this.at++;
    }
    return value;
  }

  ue(): number {
    let zeros = 0;
    while (this.read(1) === 0) if (++zeros > 31) throw new Error('an Exp-Golomb code longer than 32 bits');
    return 2 ** zeros - 1 + this.read(zeros);
  }

  se(): number {
    const code = this.ue();
    return code % 2 === 1 ? (code + 1) / 2 : -code / 2;
  }
}
