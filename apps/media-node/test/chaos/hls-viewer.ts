import { sleep, waitFor } from '../harness.js';

/**
 * An HLS viewer as a player runs one: it polls the playlist and fetches each new segment (a master playlist's first
 * variant, for a ladder), and retries whatever fails. A fault's recovery is timed by the first new segment after it.
 */
export interface HlsViewer {
  /** Segments fetched so far. */
  readonly segments: number;
  /** Bytes of the playlists and segments answered 200 (the bodies: a redirect or a refusal is not billed). */
  readonly bytes: number;
  /** Waits until a segment not seen before came after `since`; answers how long from `since` the first came. */
  playing(since: number, what: string, timeoutMs: number): Promise<number>;
  /** What it got after `since`, as changes ("+1.2 s playlist 200; +1.3 s segment 404"), for a slow recovery. */
  sawSince(since: number): string;
  stop(): Promise<void>;
}

/** `name`: who it is in a failure ("the edge's HLS viewer"). */
export function startHlsViewer(url: string, name: string): HlsViewer {
  let bytes = 0;
  const seen = new Set<string>();
  // When each new segment came (the latest ones): a recovery is timed by the first after its start, also when it is
  // judged later (the run checks the relay first).
  const newAt: number[] = [];
  let stopped = false;
  // The answers the viewer got, each change of them once (bounded: a slow recovery's story, not a log).
  const seenAnswers: Array<{ at: number; what: string }> = [];
  const saw = (what: string) => {
    if (seenAnswers.at(-1)?.what === what) return;
    seenAnswers.push({ at: Date.now(), what });
    if (seenAnswers.length > 200) seenAnswers.shift();
  };
  const get = async (target: string | URL) => {
    const response = await fetch(target, { signal: AbortSignal.timeout(5000) });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status === 200) bytes += body.length;
    return { response, body };
  };
  const viewing = (async () => {
    while (!stopped) {
      try {
        let playlist = await get(url);
        saw(`playlist ${playlist.response.status}`);
        const uris = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
        const variant = uris(playlist.body.toString()).find((line) => line.split('?')[0]?.endsWith('.m3u8'));
        if (variant) playlist = await get(new URL(variant, playlist.response.url));
        for (const { segment, at } of segmentsOf(playlist.body.toString())) {
          // The segment's name, without the session's query, and when it began: an LL-HLS packager started again (its
          // node restarted) numbers its segments from 0 again, so a name alone may be one seen before the fault.
          const name = `${segment.split('?')[0] ?? segment} ${at}`;
          if (seen.has(name)) continue;
          const media = await get(new URL(segment, playlist.response.url));
          const status = media.response.status;
          saw(`segment ${status}${status === 200 && media.body.length === 0 ? ' empty' : ''}`);
          if (status === 200 && media.body.length > 0) {
            seen.add(name);
            newAt.push(Date.now());
            if (newAt.length > 500) newAt.shift();
          }
        }
      } catch (error) {
        saw(`no answer (${error instanceof Error ? error.name : 'error'})`);
        // The node is down or the network cut: a player retries.
      }
      await sleep(500);
    }
  })();
  return {
    get segments() {
      return seen.size;
    },
    get bytes() {
      return bytes;
    },
    sawSince(since) {
      return seenAnswers
        .filter((answer) => answer.at >= since)
        .map((answer) => `+${((answer.at - since) / 1000).toFixed(1)} s ${answer.what}`)
        .join('; ');
    },
    async playing(since, what, timeoutMs) {
      const first = await waitFor(
        async () => newAt.find((at) => at > since),
        (at) => at !== undefined,
        timeoutMs,
        `${name} getting new segments after ${what}`,
      );
      return (first ?? since) - since;
    },
    async stop() {
      stopped = true;
      await Promise.race([viewing, sleep(6000)]);
    },
  };
}

/** A media playlist's segment URIs, each with the EXT-X-PROGRAM-DATE-TIME before it ('' where none). */
function segmentsOf(playlist: string): Array<{ segment: string; at: string }> {
  let at = '';
  const segments: Array<{ segment: string; at: string }> = [];
  for (const line of playlist.split('\n')) {
    if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) at = line.slice('#EXT-X-PROGRAM-DATE-TIME:'.length);
    else if (line !== '' && !line.startsWith('#')) segments.push({ segment: line, at });
  }
  return segments;
}
