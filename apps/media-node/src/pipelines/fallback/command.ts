import type { TrackInfo } from '@streamcloud/contract';
import type { FallbackSource } from './sources.js';

/** The picture and sound a fallback is played at: the push's last ones, so players and the ladder see no change. */
export interface PlayoutFormat {
  width: number;
  height: number;
  fps: number;
  sampleRate: number;
  channels: number;
}

/** When the push's tracks were never read (it failed before its first fragment). */
const DEFAULT_FORMAT: PlayoutFormat = { width: 1280, height: 720, fps: 30, sampleRate: 44100, channels: 2 };

/** The push's last size, frame rate and sound (even sizes: H.264 4:2:0 needs them). */
export function playoutFormat(tracks: TrackInfo[] | null): PlayoutFormat {
  const video = tracks?.find((track) => track.type === 'Video');
  const audio = tracks?.find((track) => track.type === 'Audio');
  const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
  return {
    width: video?.width ? even(video.width) : DEFAULT_FORMAT.width,
    height: video?.height ? even(video.height) : DEFAULT_FORMAT.height,
    fps: video?.rate ? Math.min(60, Math.max(1, Math.round(video.rate))) : DEFAULT_FORMAT.fps,
    sampleRate: audio?.rate ?? DEFAULT_FORMAT.sampleRate,
    channels: audio?.channels === 1 ? 1 : 2,
  };
}

/**
 * ffmpeg's arguments to play a fallback into nginx at `url` (the stream's own name): the source fitted
 * into the push's size (letterboxed), at its frame rate, with a keyframe a second (the HLS fragments
 * stay 1 s), H.264 and AAC like a push; a still image is looped, a video file looped from its start, a
 * live input pulled. A source without sound gets silence, so the stream keeps its audio track.
 */
export function fallbackArgs(source: FallbackSource, format: PlayoutFormat, url: string): string[] {
  const { width, height, fps, sampleRate, channels } = format;
  const input =
    source.kind === 'image'
      ? ['-re', '-loop', '1', '-framerate', String(fps), '-i', source.file]
      : source.kind === 'video'
        ? ['-re', '-stream_loop', '-1', '-i', source.file]
        : ['-rw_timeout', '5000000', '-i', source.url];
  const hasAudio = source.kind !== 'image' && source.audio;
  const silence = hasAudio
    ? []
    : ['-re', '-f', 'lavfi', '-i', `anullsrc=r=${sampleRate}:cl=${channels === 1 ? 'mono' : 'stereo'}`];
  const picture = [
    `scale=${width}:${height}:force_original_aspect_ratio=decrease`,
    `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2`,
    'setsar=1',
    `fps=${fps}`,
    'format=yuv420p',
  ].join(',');
  // About 0.1 bit per pixel: plenty for a slate, fair for a picture that moves.
  const maxrate = Math.max(200, Math.round((width * height * fps * 0.1) / 1000));
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    ...input,
    ...silence,
    '-map',
    '0:v:0',
    '-map',
    hasAudio ? '0:a:0' : '1:a:0',
    '-vf',
    picture,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    // zerolatency: no lookahead nor B-frames, so the first frames reach nginx (and viewers) sooner.
    '-tune',
    source.kind === 'image' ? 'stillimage,zerolatency' : 'zerolatency',
    '-crf',
    '23',
    '-maxrate',
    `${maxrate}k`,
    '-bufsize',
    `${maxrate * 2}k`,
    '-g',
    String(fps),
    '-keyint_min',
    String(fps),
    '-sc_threshold',
    '0',
    '-af',
    'aresample=async=1',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-ar',
    String(sampleRate),
    '-ac',
    String(channels),
    '-f',
    'flv',
    url,
  ];
}
