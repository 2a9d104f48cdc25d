import type { AudioTrack, TrackInfo, TranscodeConfig, VideoTrack } from '@streamcloud/contract';
import type { WebRtcEncoding } from '../../streams/types.js';

/**
 * The ladder a transcoder runs, worked out from the stream's configuration and the push's probed tracks:
 * which renditions (each one ffmpeg output published back into nginx-rtmp, which packages it as HLS),
 * at which real size and frame rate (never above the source's), with which audio, plus what the WebRTC
 * feed uses and the notes the stream's status messages carry. Pure: no processes, no I/O.
 */

/** Without a key interval (0: "let the encoder choose") a rendition gets a keyframe every 2 s. */
export const DEFAULT_KEY_SECONDS = 2;
/** FLV (nginx-rtmp) carries MP3 at these rates only. */
const FLV_MP3_RATES = [44_100, 22_050, 11_025] as const;

export interface VideoPlan {
  codec: 'H264';
  width: number;
  height: number;
  framerate: number;
  /** b/s */
  bitrate: number;
  /** Frames between keyframes. */
  keyInterval: number;
  preset: string;
  tune: string | null;
}

export interface AudioPlan {
  codec: 'AAC' | 'MP3';
  rate: number;
  channels: number;
  /** b/s */
  bitrate: number;
}

/**
 * One output of the transcoder: a video rendition (or the source's video copied, when the ladder has
 * no H.264 track) with its audio (a ladder track, or the source's copied; none when the source has none),
 * or an audio-only rendition.
 */
export interface RenditionPlan {
  /** Suffix of its nginx-rtmp name (`<stream id>_<key>`) and path segment of its HLS playlist. */
  key: string;
  video: VideoPlan | 'copy' | null;
  audio: AudioPlan | 'copy' | null;
  /** The configured bitrate of video and audio (b/s): the master playlist's BANDWIDTH. */
  bandwidth: number;
}

export interface LadderPlan {
  /** Renditions, the top one (the largest video bitrate) first: RTMP and WebRTC viewers get it. */
  renditions: RenditionPlan[];
  /** What the node's WebRTC feed encodes for the stream's WebRTC viewers: the ladder's VP8 and Opus tracks. */
  webrtc: WebRtcEncoding;
  /** For the stream's status messages: what was adjusted or cannot be served, and why. */
  notes: string[];
}

interface Source {
  width: number | null;
  height: number | null;
  framerate: number | null;
  hasAudio: boolean;
}

export function sourceOf(tracks: TrackInfo[]): Source {
  const video = tracks.find((track) => track.type === 'Video');
  return {
    width: video?.width ?? null,
    height: video?.height ?? null,
    framerate: video?.rate ?? null,
    hasAudio: tracks.some((track) => track.type === 'Audio'),
  };
}

/** Whether the configuration asks for a ladder at all (else the stream is passed through untouched). */
export function hasLadder(config: TranscodeConfig): boolean {
  return !config.passthrough && config.tracks.length > 0;
}

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
const label = (track: { type: string; width?: number | undefined; height?: number | undefined }) =>
  `${track.type} ${track.width && track.height ? `${track.width}x${track.height}` : 'at the source size'}`;

/** A video track's real size and frame rate: the source's when it has none, never larger or faster than the source. */
function fitToSource(
  track: VideoTrack,
  source: Source,
  notes: string[],
): { width: number; height: number; framerate: number } {
  let width = track.width ?? source.width ?? 1280;
  let height = track.height ?? source.height ?? 720;
  if (source.width && source.height && (width > source.width || height > source.height)) {
    const factor = Math.min(source.width / width, source.height / height);
    const fitted = { width: even(width * factor), height: even(height * factor) };
    notes.push(
      `${label(track)} is larger than the source (${source.width}x${source.height}): encoded at ${fitted.width}x${fitted.height}, not upscaled`,
    );
    ({ width, height } = fitted);
  }
  let framerate = track.framerate;
  if (source.framerate && framerate > source.framerate + 0.01) {
    notes.push(
      `${label(track)} at ${track.framerate} fps is faster than the source: encoded at ${source.framerate} fps`,
    );
    framerate = source.framerate;
  }
  return { width: even(width), height: even(height), framerate };
}

function audioPlan(track: AudioTrack & { type: 'AAC' | 'MP3' }, notes: string[]): AudioPlan {
  let rate = track.rate;
  if (track.type === 'MP3' && !(FLV_MP3_RATES as readonly number[]).includes(rate)) {
    const nearest = FLV_MP3_RATES.reduce((best, candidate) =>
      Math.abs(candidate - rate) < Math.abs(best - rate) ? candidate : best,
    );
    notes.push(`MP3 at ${rate} Hz is encoded at ${nearest} Hz (RTMP and HLS carry MP3 at 44100, 22050 or 11025 Hz)`);
    rate = nearest;
  }
  return { codec: track.type, rate, channels: track.channels, bitrate: track.settings.bitrate * 1000 };
}

export function planLadder(config: TranscodeConfig, tracks: TrackInfo[]): LadderPlan {
  const source = sourceOf(tracks);
  const notes: string[] = [];
  const video = config.tracks.filter((track): track is VideoTrack => ['H264', 'VP8', 'VP9'].includes(track.type));
  const audio = config.tracks.filter((track): track is AudioTrack => ['AAC', 'Opus', 'MP3'].includes(track.type));

  const h264: VideoPlan[] = video
    .filter((track): track is VideoTrack & { type: 'H264' } => track.type === 'H264')
    .map((track) => {
      const { width, height, framerate } = fitToSource(track, source, notes);
      const settings = track.settings;
      return {
        codec: 'H264' as const,
        width,
        height,
        framerate,
        bitrate: settings.bitrate * 1000,
        keyInterval: settings.keyIntMax > 0 ? settings.keyIntMax : Math.round(framerate * DEFAULT_KEY_SECONDS),
        preset: settings.speedPreset,
        tune: settings.tune === 'none' ? null : settings.tune,
      };
    })
    .sort((a, b) => b.bitrate - a.bitrate);
  const carried = audio
    .filter((track): track is AudioTrack & { type: 'AAC' | 'MP3' } => track.type === 'AAC' || track.type === 'MP3')
    .map((track) => audioPlan(track, notes))
    .sort((a, b) => b.bitrate - a.bitrate);

  // Video rendition i carries audio track i (the last one for the rest): a lower rendition gets the lower
  // audio bitrate. Audio tracks beyond the renditions become audio-only renditions.
  const sourceAudio = source.hasAudio ? ('copy' as const) : null;
  const videos: Array<VideoPlan | 'copy'> = h264.length > 0 ? h264 : carried.length > 0 ? ['copy'] : [];
  const renditions: RenditionPlan[] = videos.map((plan, index) => {
    const sound = carried.length > 0 ? (carried[Math.min(index, carried.length - 1)] ?? null) : sourceAudio;
    return {
      key: `r${index}`,
      video: plan,
      audio: sound,
      bandwidth: (plan === 'copy' ? 0 : plan.bitrate) + (sound && sound !== 'copy' ? sound.bitrate : 0),
    };
  });
  carried.slice(videos.length).forEach((sound, index) => {
    renditions.push({ key: `a${index}`, video: null, audio: sound, bandwidth: sound.bitrate });
  });

  const vp8 = video.find((track) => track.type === 'VP8');
  const opus = audio.find((track) => track.type === 'Opus');
  for (const track of video.filter((track) => track.type === 'VP9'))
    notes.push(`${label(track)} is not served: HLS and RTMP carry H.264, and WebRTC viewers get VP8`);
  if (video.filter((track) => track.type === 'VP8').length > 1)
    notes.push('WebRTC viewers get the first VP8 track only: the other VP8 tracks are not served');
  if (audio.filter((track) => track.type === 'Opus').length > 1)
    notes.push('WebRTC viewers get the first Opus track only: the other Opus tracks are not served');
  const webrtc: WebRtcEncoding = {
    video: vp8
      ? {
          ...fitToSource(vp8, source, notes),
          bitrate: vp8.settings.bitrate * 1000,
          keyInterval: 'keyMaxDist' in vp8.settings && vp8.settings.keyMaxDist > 0 ? vp8.settings.keyMaxDist : 0,
        }
      : null,
    audio: opus ? { rate: opus.rate, channels: opus.channels, bitrate: opus.settings.bitrate * 1000 } : null,
  };
  return { renditions, webrtc, notes };
}

/** A one-line description of a rendition for the stream's status messages: 'H264 1280x720 30 fps 2500 kbps + AAC 128 kbps'. */
export function describeRendition(rendition: RenditionPlan): string {
  const parts: string[] = [];
  const { video, audio } = rendition;
  if (video === 'copy') parts.push('the source video');
  else if (video) parts.push(`H264 ${video.width}x${video.height} ${video.framerate} fps ${video.bitrate / 1000} kbps`);
  if (audio === 'copy') parts.push('the source audio');
  else if (audio)
    parts.push(
      `${audio.codec} ${audio.rate} Hz ${audio.channels === 1 ? 'mono' : 'stereo'} ${audio.bitrate / 1000} kbps`,
    );
  return parts.join(' + ');
}
