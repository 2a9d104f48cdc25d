import { BitReader } from '../bit-reader.js';

/**
 * What an H.264 sequence parameter set says of a stream (ITU-T H.264 7.3.2.1.1 and E.1.1), read in the node:
 * profile and level, picture size after cropping, pixel format, frame rate from the VUI's timing, and the decoder's
 * reorder depth (B-frames). Names follow ffprobe's, which the rest of the node was written against.
 */

export interface Sps {
  profileIdc: number;
  /** constraint_set0..5 flags and the reserved bits, as the byte RFC 6381's `avc1.PPCCLL` names. */
  constraints: number;
  levelIdc: number;
  width: number;
  height: number;
  chromaFormat: number;
  bitDepth: number;
  fullRange: boolean;
  /** Frames per second from the VUI's timing information; null without it. */
  frameRate: number | null;
  /** max_num_reorder_frames of the VUI's bitstream restriction; null without it. */
  reorderFrames: number | null;
}

/** The NAL units of an Annex B byte stream (start codes 00 00 01 or 00 00 00 01). */
export function nalUnits(data: Buffer): Buffer[] {
  const units: Buffer[] = [];
  let start = -1;
  for (let i = 0; i + 2 < data.length; i++) {
    if (data[i] !== 0 || data[i + 1] !== 0 || data[i + 2] !== 1) continue;
    if (start >= 0) units.push(data.subarray(start, data[i - 1] === 0 ? i - 1 : i));
    start = i + 3;
    i += 2;
  }
  if (start >= 0 && start < data.length) units.push(data.subarray(start));
  return units;
}

/** The RBSP of a NAL unit: its emulation prevention bytes (00 00 03) removed. */
function rbsp(nal: Buffer): Buffer {
  const out = Buffer.alloc(nal.length);
  let length = 0;
  let zeros = 0;
  for (const byte of nal) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    zeros = byte === 0 ? zeros + 1 : 0;
    out[length++] = byte;
  }
  return out.subarray(0, length);
}

/** Profiles whose SPS carries chroma format, bit depths and scaling matrices (7.3.2.1.1). */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

function skipScalingList(bits: BitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) next = (last + bits.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}

function skipHrd(bits: BitReader): void {
  const count = bits.ue() + 1;
  bits.read(8); // bit_rate_scale, cpb_size_scale
  for (let i = 0; i < count; i++) {
    bits.ue();
    bits.ue();
    bits.read(1);
  }
  bits.read(20); // four 5-bit lengths
}

/** The SPS of a NAL unit of type 7 (its header byte included); null when it cannot be read. */
export function parseSps(nal: Buffer): Sps | null {
  try {
    return readSps(new BitReader(rbsp(nal.subarray(1))));
  } catch {
    return null;
  }
}

function readSps(bits: BitReader): Sps {
  const profileIdc = bits.read(8);
  const constraints = bits.read(8);
  const levelIdc = bits.read(8);
  bits.ue(); // seq_parameter_set_id
  let chromaFormat = 1;
  let bitDepth = 8;
  if (HIGH_PROFILES.has(profileIdc)) {
    chromaFormat = bits.ue();
    if (chromaFormat === 3) bits.read(1); // separate_colour_plane_flag
    bitDepth = bits.ue() + 8;
    bits.ue(); // bit_depth_chroma
    bits.read(1); // qpprime_y_zero_transform_bypass_flag
    const scalingLists = bits.flag() ? (chromaFormat === 3 ? 12 : 8) : 0;
    for (let i = 0; i < scalingLists; i++) {
      const present = bits.flag();
      if (present) skipScalingList(bits, i < 6 ? 16 : 64);
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
  bits.read(1); // gaps_in_frame_num_value_allowed_flag
  const widthMbs = bits.ue() + 1;
  const heightMapUnits = bits.ue() + 1;
  const frameMbsOnly = bits.read(1);
  if (!frameMbsOnly) bits.read(1);
  bits.read(1); // direct_8x8_inference_flag
  const [left, right, top, bottom] = bits.flag() ? [bits.ue(), bits.ue(), bits.ue(), bits.ue()] : [0, 0, 0, 0];
  const subWidth = chromaFormat === 1 || chromaFormat === 2 ? 2 : 1;
  const subHeight = chromaFormat === 1 ? 2 : 1;
  const cropX = chromaFormat === 0 ? 1 : subWidth;
  const cropY = (chromaFormat === 0 ? 1 : subHeight) * (2 - frameMbsOnly);
  const sps: Sps = {
    profileIdc,
    constraints,
    levelIdc,
    width: widthMbs * 16 - cropX * (left + right),
    height: (2 - frameMbsOnly) * heightMapUnits * 16 - cropY * (top + bottom),
    chromaFormat,
    bitDepth,
    fullRange: false,
    frameRate: null,
    reorderFrames: null,
  };
  if (bits.flag()) readVui(bits, sps);
  return sps;
}

function readVui(bits: BitReader, sps: Sps): void {
  if (bits.flag() && bits.read(8) === 255) bits.read(32); // aspect ratio, extended SAR
  if (bits.flag()) bits.read(1); // overscan
  if (bits.flag()) {
    bits.read(3); // video_format
    sps.fullRange = bits.flag();
    if (bits.flag()) bits.read(24); // colour description
  }
  if (bits.flag()) {
    bits.ue();
    bits.ue();
  }
  if (bits.flag()) {
    const unitsInTick = bits.read(32);
    const timeScale = bits.read(32);
    bits.read(1); // fixed_frame_rate_flag
    if (unitsInTick > 0) sps.frameRate = Math.round((timeScale / (2 * unitsInTick)) * 100) / 100;
  }
  const nalHrd = bits.flag();
  if (nalHrd) skipHrd(bits);
  const vclHrd = bits.flag();
  if (vclHrd) skipHrd(bits);
  if (nalHrd || vclHrd) bits.read(1); // low_delay_hrd_flag
  bits.read(1); // pic_struct_present_flag
  if (bits.flag()) {
    bits.read(1);
    for (let i = 0; i < 4; i++) bits.ue();
    sps.reorderFrames = bits.ue();
  }
}

/** ffprobe's name of the SPS's profile (libavcodec's profile table); null for one the node does not name. */
export function profileName(sps: Sps): string | null {
  const set1 = (sps.constraints & 0x40) !== 0;
  const set3 = (sps.constraints & 0x10) !== 0;
  const intra = (name: string) => (set3 ? `${name} Intra` : name);
  switch (sps.profileIdc) {
    case 66:
      return set1 ? 'Constrained Baseline' : 'Baseline';
    case 77:
      return 'Main';
    case 88:
      return 'Extended';
    case 100:
      return 'High';
    case 110:
      return intra('High 10');
    case 122:
      return intra('High 4:2:2');
    case 244:
      return set3 ? 'High 4:4:4 Intra' : 'High 4:4:4 Predictive';
    case 44:
      return 'CAVLC 4:4:4';
    default:
      return null;
  }
}

/** ffmpeg's pixel format name of the SPS's chroma format and bit depth (yuvj: full range, 8-bit). */
export function pixelFormat(sps: Sps): string | null {
  const chroma = ['gray', 'yuv420p', 'yuv422p', 'yuv444p'][sps.chromaFormat];
  if (!chroma) return null;
  if (sps.bitDepth === 8) return sps.fullRange && chroma !== 'gray' ? chroma.replace('yuv', 'yuvj') : chroma;
  return `${chroma}${sps.bitDepth}le`;
}

/** RFC 6381's CODECS value of the SPS (`avc1.64001f`): profile, constraint byte and level as written. */
export const avcCodecs = (sps: Sps): string =>
  `avc1.${[sps.profileIdc, sps.constraints, sps.levelIdc].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
