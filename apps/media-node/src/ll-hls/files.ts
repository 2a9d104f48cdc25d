/**
 * The names of a Low latency output's files — the init segment of each period, each segment and each of its parts —
 * made and read in one place: the playlists list them, the rewind window's disk and the VODs keep them, players ask
 * for them.
 */
export const initFile = (period: number) => `init-${period}.mp4`;
export const segmentFile = (msn: number) => `seg-${msn}.m4s`;
export const partFile = (msn: number, index: number) => `part-${msn}.${index}.m4s`;

export type LowLatencyFile =
  | { kind: 'init'; period: number }
  | { kind: 'part'; msn: number; index: number }
  | { kind: 'segment'; msn: number };

const INIT = /^init-(\d{1,9})\.mp4$/;
const PART = /^part-(\d{1,9})\.(\d{1,4})\.m4s$/;
const SEGMENT = /^seg-(\d{1,9})\.m4s$/;

/** What a Low latency output's file names ask for, or null for a name the packager does not make. */
export function parseLowLatencyFile(name: string): LowLatencyFile | null {
  const init = INIT.exec(name);
  if (init) return { kind: 'init', period: Number(init[1]) };
  const part = PART.exec(name);
  if (part) return { kind: 'part', msn: Number(part[1]), index: Number(part[2]) };
  const segment = SEGMENT.exec(name);
  if (segment) return { kind: 'segment', msn: Number(segment[1]) };
  return null;
}

/**
 * ffmpeg's output arguments for the packager: the input's tracks copied into fragmented MP4 on stdout, a fragment
 * (an LL-HLS part) every `partSeconds` at most and at every keyframe. `empty_moov`: the init segment comes first,
 * alone; `default_base_moof`: each fragment's data offsets are relative to its own moof, so a part stands alone.
 * The fragments are cut a little short of the part target (ffmpeg closes one once it reached the duration asked),
 * so at 24–30 fps every part stays within PART-TARGET.
 */
export function fmp4OutputArgs(partSeconds: number): string[] {
  return [
    '-c',
    'copy',
    '-f',
    'mp4',
    '-movflags',
    'frag_keyframe+empty_moov+default_base_moof',
    '-frag_duration',
    String(Math.floor(partSeconds * 0.9 * 1_000_000)),
    'pipe:1',
  ];
}
