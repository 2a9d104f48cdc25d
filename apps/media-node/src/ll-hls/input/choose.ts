import type { TrackInfo } from '@streamcloud/contract';

/** How a variant reaches its packager: remuxed in the node's own process, or by an ffmpeg of its own. */
export type PackagerInput = 'in-process' | 'ffmpeg';

/** The codecs (as the probe names them) the in-process remuxer takes. */
const REMUXED: Record<TrackInfo['type'], string> = { Video: 'H264', Audio: 'AAC' };

/**
 * The one place the input is chosen: in-process when the variant's tracks are known and each is H.264 or AAC (the
 * remuxer's FLV codecs), ffmpeg otherwise (MP3, other codecs, or tracks not probed yet: ffmpeg probes them itself) and always when the node's
 * LL_HLS_REMUX is off (`remux`).
 */
export function packagerInputOf(tracks: readonly TrackInfo[] | null, remux = true): PackagerInput {
  if (!remux || !tracks || tracks.length === 0) return 'ffmpeg';
  return tracks.every((track) => REMUXED[track.type] === track.codec) ? 'in-process' : 'ffmpeg';
}
