import type { TrackInfo } from '@streamcloud/contract';
import { playInputArgs } from '../../front-ends/rtmp/nginx.js';
import type { AudioPlan, LadderPlan, VideoPlan } from './plan.js';

export interface CommandInputs {
  /** The push, played from nginx-rtmp. */
  input: string;
  /** Its tracks as probed (how long ffmpeg probes it: playInputArgs). */
  inputTracks: readonly TrackInfo[];
  /** Where rendition `key` is published (nginx-rtmp, `<stream id>_<key>`). */
  output: (key: string) => string;
  /** The overlay logo as a file, at its offsets in source pixels; null without one. */
  logo: { file: string; x: number; y: number } | null;
  /** The epoch time encoder's font; null when it is off. */
  epochFont: string | null;
  /** The source picture's height (sizes the burned-in time). */
  sourceHeight: number | null;
}

/**
 * The burned-in epoch time: Unix time in milliseconds, 13 digits, read from the wall clock when the frame
 * is encoded (seconds and the 3-digit milliseconds are two expansions of drawtext: its integer format
 * cannot hold 13 digits). docs/decisions.md, "Epoch time encoder", has the exact form.
 */
export const EPOCH_TEXT = '%{eif\\:floor(time(0))\\:d}%{eif\\:mod(floor(time(0)*1000)\\,1000)\\:d\\:3}';

/** Escapes a value for a filtergraph option (`'` quoting; the graph's own separators are inside quotes). */
const quoted = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/**
 * ffmpeg's arguments for a ladder: the push is decoded once; the overlay and the epoch time are drawn on
 * the source picture, which is then split and scaled per rendition (so both scale with it and cover the
 * same share of every rendition); each rendition is one FLV output into nginx-rtmp with its own encoder.
 * Progress (`speed=`) comes on stdout every second.
 */
export function transcoderArgs(plan: LadderPlan, io: CommandInputs): string[] {
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-progress', 'pipe:1', '-stats_period', '1'];
  args.push(...playInputArgs(io.input, io.inputTracks));
  const encoded = plan.renditions.filter((rendition) => rendition.video && rendition.video !== 'copy');
  const graph: string[] = [];
  if (encoded.length > 0) {
    let picture = '[0:v]';
    if (io.logo) {
      graph.push(`movie=${quoted(io.logo.file)},format=rgba[logo]`);
      graph.push(`${picture}[logo]overlay=x=${io.logo.x}:y=${io.logo.y}:eof_action=repeat[withlogo]`);
      picture = '[withlogo]';
    }
    if (io.epochFont) {
      const size = Math.max(12, Math.round((io.sourceHeight ?? 720) / 24));
      const margin = Math.round(size / 2);
      graph.push(
        `${picture}drawtext=fontfile=${quoted(io.epochFont)}:text='${EPOCH_TEXT}':fontsize=${size}:fontcolor=white:` +
          `box=1:boxcolor=black@0.6:boxborderw=${Math.round(size / 4)}:x=${margin}:y=h-th-${margin}[withtime]`,
      );
      picture = '[withtime]';
    }
    graph.push(`${picture}split=${encoded.length}${encoded.map((_, index) => `[s${index}]`).join('')}`);
    encoded.forEach((rendition, index) => {
      const video = rendition.video as VideoPlan;
      graph.push(
        `[s${index}]scale=${video.width}:${video.height},fps=${video.framerate},format=yuv420p[${rendition.key}]`,
      );
    });
  }
  if (graph.length > 0) args.push('-filter_complex', graph.join(';'));
  for (const rendition of plan.renditions) {
    const { video, audio } = rendition;
    if (video === 'copy') args.push('-map', '0:v:0', '-c:v', 'copy');
    else if (video) args.push('-map', `[${rendition.key}]`, ...h264Args(video));
    if (audio === 'copy') args.push('-map', '0:a:0?', '-c:a', 'copy');
    else if (audio) args.push('-map', '0:a:0', ...audioArgs(audio));
    args.push('-f', 'flv', io.output(rendition.key));
  }
  return args;
}

/** CBR (nal-hrd) so the rendition's bitrate is the configured one, the BANDWIDTH its variant claims. */
function h264Args(video: VideoPlan): string[] {
  const kbps = `${Math.round(video.bitrate / 1000)}k`;
  return [
    '-c:v',
    'libx264',
    '-preset',
    video.preset,
    ...(video.tune ? ['-tune', video.tune] : []),
    '-b:v',
    kbps,
    '-minrate',
    kbps,
    '-maxrate',
    kbps,
    '-bufsize',
    kbps,
    '-x264-params',
    'nal-hrd=cbr:force-cfr=1',
    // Fixed GOPs (no scene-cut keyframes): every rendition's fragments start at the same times.
    '-g',
    String(video.keyInterval),
    '-keyint_min',
    String(video.keyInterval),
    '-sc_threshold',
    '0',
    // No B-frames: browsers' WebRTC H.264 takes no reordered frames, so without them the node's WHEP feed sends
    // the top rendition as it is instead of re-encoding it to VP8 (webrtc-h264.ts). The picture is 4:2:0 8-bit
    // already (the graph's format=yuv420p), the other thing a browser's decoder needs.
    '-bf',
    '0',
  ];
}

function audioArgs(audio: AudioPlan): string[] {
  return [
    '-c:a',
    audio.codec === 'AAC' ? 'aac' : 'libmp3lame',
    '-b:a',
    `${Math.round(audio.bitrate / 1000)}k`,
    '-ar',
    String(audio.rate),
    '-ac',
    String(audio.channels),
  ];
}
