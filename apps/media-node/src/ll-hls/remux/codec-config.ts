import { BitReader } from '../../bit-reader.js';
import { parseSps } from '../../media-probe/h264.js';

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
  const sps = parseSps(avcC.subarray(8, 8 + length));
  if (!sps) throw new Error('an H.264 SPS that cannot be read');
  return { width: sps.width, height: sps.height };
}
