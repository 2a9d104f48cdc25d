import { useEffect, useState } from 'react';
import type { Playback } from '@/media/playback';
import { loadStoryboard, type Storyboard } from '@/media/storyboard';

/** A live window's storyboard grows with it: read again this often while the seek bar shows. */
const REFRESH_MS = 5_000;
/** Before the playback knows its session (its first fragment), or while the storyboard has no tile, this often. */
const WAIT_MS = 1_000;

/** What the seek bar reads of a playback (an HLS playback; a clip's file player has its link). */
export type StoryboardSource = Pick<Playback, 'programDate' | 'storyboardUrl'>;

/**
 * The storyboard of what `playback` plays (its WebVTT in the playback's session), read when it is known and again
 * every REFRESH_MS; null while there is none (an output without a rewind window, or no sheet made yet).
 */
export function useStoryboard(playback: () => StoryboardSource | null): Storyboard | null {
  const [storyboard, setStoryboard] = useState<Storyboard | null>(null);
  useEffect(() => {
    const stopped = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      const url = playback()?.storyboardUrl?.() ?? null;
      let tiles = 0;
      if (url) {
        const found = await loadStoryboard(url, stopped.signal).catch(() => null);
        tiles = found?.tiles.length ?? 0;
        if (!stopped.signal.aborted && found) setStoryboard(found);
      }
      // Asked for, the node makes the first sheet at once: read again soon while there is no tile yet.
      if (!stopped.signal.aborted) timer = setTimeout(read, tiles > 0 ? REFRESH_MS : WAIT_MS);
    };
    void read();
    return () => {
      stopped.abort();
      clearTimeout(timer);
    };
  }, [playback]);
  return storyboard;
}
