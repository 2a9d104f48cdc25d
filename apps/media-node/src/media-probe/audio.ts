/**
 * The audio frames of an MPEG-TS audio stream, read from their headers: AAC in ADTS (ISO/IEC 14496-3 1.A.2) and
 * MPEG-1/2 audio layer III (ISO/IEC 11172-3 2.4.1.3). Each gives the frames' sample rate, channels, samples per
 * frame and sizes, which is what a track's description and bitrate need.
 */

export interface AudioFrames {
  codec: 'AAC' | 'MP3';
  /** The AAC audio object type (2: LC); null for MP3. */
  objectType: number | null;
  sampleRate: number;
  channels: number;
  samplesPerFrame: number;
  frames: number;
  bytes: number;
}

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** One frame's header: its length in bytes and what it says of the stream. */
interface FrameHeader {
  length: number;
  format: Omit<AudioFrames, 'frames' | 'bytes'>;
}

/** The frames of payloads one after another, read by `header`; null when one is not a frame it reads. */
function countFrames(
  payloads: readonly Buffer[],
  header: (data: Buffer, at: number) => FrameHeader | null,
): AudioFrames | null {
  let format: FrameHeader['format'] | null = null;
  let frames = 0;
  let bytes = 0;
  for (const data of payloads) {
    for (let at = 0; at < data.length; ) {
      const frame = header(data, at);
      if (!frame) return null;
      format ??= frame.format;
      frames++;
      bytes += Math.min(frame.length, data.length - at);
      at += frame.length;
    }
  }
  return format && { ...format, frames, bytes };
}

/** An ADTS header (several frames per PES, as nginx-rtmp packs them). */
function adtsHeader(data: Buffer, at: number): FrameHeader | null {
  if (at + 7 > data.length || data.readUInt8(at) !== 0xff || (data.readUInt8(at + 1) & 0xf6) !== 0xf0) return null;
  const length =
    ((data.readUInt8(at + 3) & 0x03) << 11) | (data.readUInt8(at + 4) << 3) | (data.readUInt8(at + 5) >> 5);
  const sampleRate = AAC_RATES[(data.readUInt8(at + 2) >> 2) & 0x0f];
  const channels = ((data.readUInt8(at + 2) & 0x01) << 2) | (data.readUInt8(at + 3) >> 6);
  // Channels from a program config element (0): ffprobe's to read.
  if (length < 7 || !sampleRate || channels === 0) return null;
  const objectType = (data.readUInt8(at + 2) >> 6) + 1;
  return { length, format: { codec: 'AAC', objectType, sampleRate, channels, samplesPerFrame: 1024 } };
}

const MP3_BITRATES = {
  1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
} as const;
const MP3_RATES = { 1: [44100, 48000, 32000], 2: [22050, 24000, 16000], 2.5: [11025, 12000, 8000] } as const;

/** An MPEG audio layer III header; null for another layer or a free bitrate. */
function mp3Header(data: Buffer, at: number): FrameHeader | null {
  if (at + 4 > data.length || data.readUInt8(at) !== 0xff || (data.readUInt8(at + 1) & 0xe0) !== 0xe0) return null;
  const versionBits = (data.readUInt8(at + 1) >> 3) & 0x3;
  const layer = (data.readUInt8(at + 1) >> 1) & 0x3;
  if (versionBits === 1 || layer !== 1) return null;
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const kbps = MP3_BITRATES[version === 1 ? 1 : 2][data.readUInt8(at + 2) >> 4];
  const sampleRate = MP3_RATES[version][(data.readUInt8(at + 2) >> 2) & 0x3];
  if (!kbps || !sampleRate) return null;
  const samplesPerFrame = version === 1 ? 1152 : 576;
  const padding = (data.readUInt8(at + 2) >> 1) & 1;
  const length = Math.floor((samplesPerFrame / 8) * ((kbps * 1000) / sampleRate)) + padding;
  const channels = data.readUInt8(at + 3) >> 6 === 3 ? 1 : 2;
  return { length, format: { codec: 'MP3', objectType: null, sampleRate, channels, samplesPerFrame } };
}

/** AAC frames in ADTS; null when a header is not one. */
export const adtsFrames = (payloads: readonly Buffer[]) => countFrames(payloads, adtsHeader);

/** MPEG audio layer III frames; null when a header is not one. */
export const mp3Frames = (payloads: readonly Buffer[]) => countFrames(payloads, mp3Header);
