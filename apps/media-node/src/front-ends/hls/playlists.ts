import type { LadderRendition } from '@streamcloud/contract';

/**
 * A playlist asked for while the live push has none yet (its first fragment is still being written, or
 * its renditions are starting) is answered once it exists, up to this long, rather than with a 404 that
 * makes a player (ffprobe, hls.js, Safari) give up on a stream that is merely starting.
 */
export const PLAYLIST_WAIT_MS = 10_000;
/** A first viewer waits for the first fragment: looked for this often (a read of the playlist), so it is answered soon after. */
export const PLAYLIST_POLL_MS = 50;

/** nginx-rtmp names fragments by the system time (ms) they started at (`hls_fragment_naming system`). */
const TIMED_FRAGMENT = /^(\d{13})\.ts$/;

/** When a fragment named by nginx-rtmp started (ms since the epoch), read from its name; null for another name. */
export function fragmentStartMs(name: string): number | null {
  const timed = TIMED_FRAGMENT.exec(name);
  return timed ? Number(timed[1]) : null;
}

/**
 * nginx-rtmp's media playlist as the viewer gets it: every URI with `prefix` and the session `suffix`, an
 * EXT-X-PROGRAM-DATE-TIME before each fragment named by its start time, and EXT-X-ENDLIST once the stream ended.
 */
export function rewrite(playlist: string, o: { prefix?: string; suffix: string; ended: boolean }): string {
  const out: string[] = [];
  const lines = playlist.split('\n').map((line) => line.trim());
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!line) continue;
    if (line.startsWith('#EXTINF')) {
      const uri = lines.slice(i + 1).find((next) => next && !next.startsWith('#')) ?? '';
      const started = fragmentStartMs(uri);
      if (started !== null) out.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(started).toISOString()}`);
    }
    if (line === '#EXT-X-ENDLIST') continue;
    out.push(line.startsWith('#') ? line : `${o.prefix ?? ''}${line}${o.suffix}`);
  }
  if (o.ended) out.push('#EXT-X-ENDLIST');
  return `${out.join('\n')}\n`;
}

/** The master playlist of a transcoded stream: one variant per rendition (video, or audio only). */
export function master(renditions: LadderRendition[], suffix: string): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const rendition of renditions) {
    const attributes = [`BANDWIDTH=${rendition.bandwidth}`];
    if (rendition.width && rendition.height) attributes.push(`RESOLUTION=${rendition.width}x${rendition.height}`);
    if (rendition.codecs) attributes.push(`CODECS="${rendition.codecs}"`);
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, `${rendition.key}/index.m3u8${suffix}`);
  }
  return `${lines.join('\n')}\n`;
}
