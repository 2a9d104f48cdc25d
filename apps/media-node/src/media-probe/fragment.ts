import type { ProbedTrack } from '../probe.js';
import { type AudioFrames, adtsFrames, mp3Frames } from './audio.js';
import { avcCodecs, nalUnits, parseSps, pixelFormat, profileName, type Sps } from './h264.js';
import { demuxTs, type ElementaryStream } from './mpeg-ts.js';

const H264 = 0x1b;
const AAC_ADTS = 0x0f;
const MPEG_AUDIO = [0x03, 0x04];
const SPS_NAL = 7;
const PTS_HZ = 90_000;

/**
 * The tracks of one of nginx-rtmp's MPEG-TS HLS fragments, read in the node as ffprobe would report them (codec,
 * picture size, frame or sample rate, channels, bitrate from the packets, the video's coding), without starting a
 * process: a wave of pushes going live probed each first fragment with ffprobe, ~0.1 s of a core apiece and ~40 ms
 * of the node's main thread to spawn it (issue 39). Null for anything it does not read (another codec, an SPS it
 * cannot parse, a fragment that is not plain MPEG-TS): the caller asks ffprobe then.
 */
export function fragmentTracks(file: Buffer): ProbedTrack[] | null {
  try {
    return readTracks(file);
  } catch {
    return null; // a header cut short (RangeError): ffprobe's to read
  }
}

function readTracks(file: Buffer): ProbedTrack[] | null {
  const streams = demuxTs(file);
  if (!streams) return null;
  const tracks: ProbedTrack[] = [];
  for (const stream of streams) {
    if (stream.pes.length === 0) continue; // named in every fragment, not in the push (see probeMedia)
    const track =
      stream.streamType === H264
        ? videoTrack(stream, tracks.length)
        : stream.streamType === AAC_ADTS || MPEG_AUDIO.includes(stream.streamType)
          ? audioTrack(stream, tracks.length)
          : null;
    if (!track) return null;
    tracks.push(track);
  }
  return tracks;
}

function videoTrack(stream: ElementaryStream, idx: number): ProbedTrack | null {
  let sps: Sps | null = null;
  for (const pes of stream.pes) {
    const unit = nalUnits(pes.data).find((nal) => ((nal[0] ?? 0) & 0x1f) === SPS_NAL);
    if (unit) {
      sps = parseSps(unit);
      break;
    }
  }
  const profile = sps && profileName(sps);
  const pixFmt = sps && pixelFormat(sps);
  if (!sps || !profile || !pixFmt) return null;
  const rate = sps.frameRate ?? averageRate(stream);
  const frames = stream.pes.length;
  const bytes = stream.pes.reduce((sum, pes) => sum + pes.data.length, 0);
  // Reordered frames: the VUI says how deep, or, without it, a frame shown after a later one was decoded.
  const reordered = sps.reorderFrames !== null ? sps.reorderFrames > 0 : stream.pes.some((pes) => pes.pts !== pes.dts);
  return {
    idx,
    type: 'Video',
    codec: 'H264',
    width: sps.width,
    height: sps.height,
    bps: rate ? Math.round((bytes * 8 * rate) / frames) : null,
    channels: null,
    rate,
    codecs: avcCodecs(sps),
    coding: { codec: 'h264', profile, level: sps.levelIdc, bFrames: reordered, pixFmt },
  };
}

/** Frames per second from the decoding times, for a stream whose SPS has no timing; null with fewer than 2 frames. */
function averageRate(stream: ElementaryStream): number | null {
  const times = stream.pes.map((pes) => pes.dts).filter((dts): dts is number => dts !== null);
  if (times.length < 2) return null;
  const span = Math.max(...times) - Math.min(...times);
  return span > 0 ? Math.round(((times.length - 1) * PTS_HZ * 100) / span) / 100 : null;
}

function audioTrack(stream: ElementaryStream, idx: number): ProbedTrack | null {
  const payloads = stream.pes.map((pes) => pes.data);
  const frames: AudioFrames | null = stream.streamType === AAC_ADTS ? adtsFrames(payloads) : mp3Frames(payloads);
  // Another AAC object type in ADTS goes to ffprobe. HE-AAC with implicit SBR says LC at its core rate here: only a
  // decoder finds the SBR (ffprobe then says HE-AAC at twice the rate); players decode it from LC's CODECS alike.
  if (!frames || (frames.codec === 'AAC' && frames.objectType !== 2)) return null;
  const seconds = (frames.frames * frames.samplesPerFrame) / frames.sampleRate;
  return {
    idx,
    type: 'Audio',
    codec: frames.codec,
    width: null,
    height: null,
    bps: Math.round((frames.bytes * 8) / seconds),
    channels: frames.channels,
    rate: frames.sampleRate,
    codecs: frames.codec === 'AAC' ? 'mp4a.40.2' : 'mp4a.40.34',
    coding: null,
  };
}
