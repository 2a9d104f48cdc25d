import { readFile, stat } from 'node:fs/promises';
import type { SnapshotSettings, TrackInfo } from '@streamcloud/contract';
import { runTool } from './child.js';
import { fragmentTracks } from './media-probe/fragment.js';

interface ProbeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  level?: number;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  bit_rate?: string;
  has_b_frames?: number;
  pix_fmt?: string;
}

interface ProbePacket {
  stream_index: number;
  size: string;
  duration_time?: string;
}

const CODEC_NAMES: Record<string, string> = {
  h264: 'H264',
  hevc: 'H265',
  vp8: 'VP8',
  vp9: 'VP9',
  av1: 'AV1',
  aac: 'AAC',
  opus: 'Opus',
  mp3: 'MP3',
};

const rate = (fraction: string | undefined): number | null => {
  if (!fraction) return null;
  const [num, den] = fraction.split('/').map(Number);
  if (!num || !den) return null;
  return Math.round((num / den) * 100) / 100;
};

/** RFC 6381 profile bytes of H.264 as x264 writes them (profile_idc, constraint flags). */
const AVC_PROFILES: Record<string, string> = {
  'Constrained Baseline': '42c0',
  Baseline: '4200',
  Main: '4d40',
  High: '6400',
  'High 10': '6e00',
  'High 4:2:2': '7a00',
  'High 4:4:4 Predictive': 'f400',
};

/** The HLS CODECS value of a probed stream (`avc1.64001f`, `mp4a.40.2`); null for what HLS does not name. */
function codecsOf(stream: ProbeStream): string | null {
  if (stream.codec_name === 'h264') {
    const profile = AVC_PROFILES[stream.profile ?? ''] ?? '6400';
    return `avc1.${profile}${(stream.level ?? 31).toString(16).padStart(2, '0')}`;
  }
  if (stream.codec_name === 'aac') return stream.profile === 'HE-AAC' ? 'mp4a.40.5' : 'mp4a.40.2';
  if (stream.codec_name === 'mp3') return 'mp4a.40.34';
  return null;
}

/**
 * How a video track is coded, as far as a WebRTC player cares (front-ends/webrtc/h264.ts decides from it whether the
 * track can be sent to browsers as it is): ffprobe's codec, profile and level names, whether frames are
 * reordered (B-frames: `has_b_frames`, the decoder's reorder depth, from the SPS or seen in the packets), and the
 * pixel format.
 */
export interface VideoCoding {
  codec: string;
  /** ffprobe's profile name ("Constrained Baseline", "High", "High 4:4:4 Predictive"...); null when it has none. */
  profile: string | null;
  /** level_idc (31 for 3.1); null when unknown. */
  level: number | null;
  bFrames: boolean;
  pixFmt: string | null;
}

/** A probed track with what an HLS master playlist says of it, and how a video track is coded. */
export type ProbedTrack = TrackInfo & { codecs: string | null; coding: VideoCoding | null };

/** The coding of the first video track among probed tracks; null without one. */
export const videoCodingOf = (tracks: readonly ProbedTrack[]): VideoCoding | null =>
  tracks.find((track) => track.coding)?.coding ?? null;

/** Probed tracks as the contract reports them (without what only the node uses). */
export const trackInfos = (tracks: readonly ProbedTrack[]): TrackInfo[] =>
  tracks.map(({ codecs: _codecs, coding: _coding, ...track }) => track);

/** The most of an HLS fragment read into the node to probe it there; a bigger one goes to ffprobe. */
const FRAGMENT_READ_LIMIT = 32 * 1024 * 1024;

/**
 * The tracks of one of nginx-rtmp's MPEG-TS HLS fragments (a push's, a rendition's): read in the node when it holds
 * H.264 and AAC or MP3 as nginx-rtmp writes them (media-probe/fragment.ts, no process started), by ffprobe otherwise.
 */
export async function probeFragment(ffprobe: string, file: string): Promise<ProbedTrack[]> {
  if ((await stat(file)).size <= FRAGMENT_READ_LIMIT) {
    const tracks = fragmentTracks(await readFile(file));
    if (tracks) return tracks;
  }
  return probeMedia(ffprobe, file);
}

/**
 * Track information of a media file by ffprobe: codec, size, frame or sample rate, channels, each track's bitrate
 * from its packets (sizes over durations), its HLS CODECS value and a video track's coding.
 */
export async function probeMedia(
  ffprobe: string,
  file: string,
  /** A live source is probed by its streams only (its packets never end), with these input options. */
  live?: { inputArgs: string[]; timeoutMs: number },
): Promise<ProbedTrack[]> {
  const packets = live ? [] : ['-show_entries', 'packet=stream_index,size,duration_time'];
  const out = await runTool(
    ffprobe,
    ['-v', 'error', ...(live?.inputArgs ?? []), '-print_format', 'json', '-show_streams', ...packets, file],
    live?.timeoutMs ?? 10_000,
  );
  const parsed = JSON.parse(out.toString()) as { streams?: ProbeStream[]; packets?: ProbePacket[] };
  const sizes = new Map<number, { bytes: number; seconds: number }>();
  for (const packet of parsed.packets ?? []) {
    const entry = sizes.get(packet.stream_index) ?? { bytes: 0, seconds: 0 };
    entry.bytes += Number(packet.size) || 0;
    entry.seconds += Number(packet.duration_time) || 0;
    sizes.set(packet.stream_index, entry);
  }
  const tracks: ProbedTrack[] = [];
  for (const stream of parsed.streams ?? []) {
    if (stream.codec_type !== 'video' && stream.codec_type !== 'audio') continue;
    const measured = sizes.get(stream.index);
    // nginx-rtmp's MPEG-TS names a video and an audio stream in every fragment: one without a packet is not
    // in the push (a video-only or audio-only push), and players mapping it would fail.
    if (!live && !measured) continue;
    const bps =
      measured && measured.seconds > 0
        ? Math.round((measured.bytes * 8) / measured.seconds)
        : stream.bit_rate
          ? Number(stream.bit_rate)
          : null;
    const video = stream.codec_type === 'video';
    tracks.push({
      idx: tracks.length,
      type: video ? 'Video' : 'Audio',
      codec: CODEC_NAMES[stream.codec_name ?? ''] ?? (stream.codec_name ?? 'unknown').toUpperCase(),
      width: video ? (stream.width ?? null) : null,
      height: video ? (stream.height ?? null) : null,
      bps,
      channels: video ? null : (stream.channels ?? null),
      rate: video
        ? (rate(stream.avg_frame_rate) ?? rate(stream.r_frame_rate))
        : stream.sample_rate
          ? Number(stream.sample_rate)
          : null,
      codecs: codecsOf(stream),
      coding: video
        ? {
            codec: stream.codec_name ?? 'unknown',
            profile: stream.profile ?? null,
            level: stream.level ?? null,
            bFrames: (stream.has_b_frames ?? 0) > 0,
            pixFmt: stream.pix_fmt ?? null,
          }
        : null,
    });
  }
  return tracks;
}

/** Longest side of a snapshot per quality, and the JPEG quantiser (2 best .. 31 worst). */
const QUALITY = { Low: { side: 320, q: 12 }, Medium: { side: 640, q: 5 }, High: { side: 1280, q: 2 } } as const;

/** One image from the first frame of a media file (a fragment starts with a keyframe). */
export async function snapshot(ffmpeg: string, file: string, settings: SnapshotSettings): Promise<Buffer> {
  const { side, q } = QUALITY[settings.quality];
  const scale = `scale='if(gt(iw,ih),min(${side},iw),-2)':'if(gt(iw,ih),-2,min(${side},ih))'`;
  const format =
    settings.format === 'PNG'
      ? ['-c:v', 'png', '-f', 'image2pipe']
      : ['-c:v', 'mjpeg', '-q:v', String(q), '-f', 'image2pipe'];
  return runTool(
    ffmpeg,
    ['-v', 'error', '-nostdin', '-i', file, '-frames:v', '1', '-vf', scale, ...format, 'pipe:1'],
    10_000,
  );
}
