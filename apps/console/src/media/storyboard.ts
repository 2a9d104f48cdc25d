/**
 * A storyboard the node serves beside an HLS playlist (docs/decisions.md, "Storyboards (issue 35)"): a WebVTT whose
 * cues name a tile of a sprite sheet (`<sheet>#xywh=x,y,w,h`). A live window's VTT says the program date of its
 * timeline's 0 (`X-PROGRAM-DATE-TIME=`); a VOD's timeline is its media time.
 */
export interface StoryboardTile {
  start: number;
  end: number;
  /** The sheet's address (resolved against the VTT's). */
  url: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Storyboard {
  /** The program date (ms) of the timeline's 0: a live window's; null for a VOD's. */
  programDate: number | null;
  tiles: StoryboardTile[];
}

const TIMING = /^(\d{2,}):(\d{2}):(\d{2}(?:\.\d{1,3})?)\s+-->\s+(\d{2,}):(\d{2}):(\d{2}(?:\.\d{1,3})?)/;
const XYWH = /^(.*)#xywh=(\d+),(\d+),(\d+),(\d+)$/;

const seconds = (hours = '0', minutes = '0', secs = '0') => Number(hours) * 3600 + Number(minutes) * 60 + Number(secs);

/** The storyboard a VTT (fetched from `base`) describes; cues that name no tile are left out. */
export function parseStoryboard(vtt: string, base: string): Storyboard {
  const lines = vtt.split(/\r?\n/);
  const header = lines.find((line) => line.startsWith('X-PROGRAM-DATE-TIME='));
  const date = header ? Date.parse(header.slice('X-PROGRAM-DATE-TIME='.length)) : Number.NaN;
  const tiles: StoryboardTile[] = [];
  for (let i = 0; i < lines.length; i++) {
    const timing = TIMING.exec(lines[i] ?? '');
    const tile = XYWH.exec(lines[i + 1]?.trim() ?? '');
    if (!timing || !tile) continue;
    tiles.push({
      start: seconds(timing[1], timing[2], timing[3]),
      end: seconds(timing[4], timing[5], timing[6]),
      url: new URL(tile[1] ?? '', base).toString(),
      x: Number(tile[2]),
      y: Number(tile[3]),
      w: Number(tile[4]),
      h: Number(tile[5]),
    });
  }
  return { programDate: Number.isFinite(date) ? date : null, tiles };
}

/** How far before the first tile a position still shows it (the player's and the node's clocks differ by a frame or so). */
const EARLY_SECONDS = 2;

/** The tile shown at `time` of the storyboard's timeline: the cue holding it, else the last one before it. */
export function tileAt(storyboard: Storyboard, time: number): StoryboardTile | null {
  const [first] = storyboard.tiles;
  if (first && time < first.start) return first.start - time <= EARLY_SECONDS ? first : null;
  let found: StoryboardTile | null = null;
  for (const tile of storyboard.tiles) {
    if (tile.start > time) break;
    found = tile;
  }
  return found && time <= Math.max(found.end, found.start + 10) ? found : null;
}

/**
 * Where a position of the player's timeline (seconds, as `video.currentTime`) falls on the storyboard's: a live
 * window's by program date (`playing`: the program date of the frame at `currentTime`), a VOD's as is. Null when a
 * live window's date is not known yet.
 */
export function storyboardTime(
  storyboard: Storyboard,
  position: number,
  now: { currentTime: number; playing: Date | null },
): number | null {
  if (storyboard.programDate === null) return position;
  if (!now.playing) return null;
  const date = now.playing.getTime() + (position - now.currentTime) * 1000;
  return (date - storyboard.programDate) / 1000;
}

/** The program date of a position of a live window's timeline (for the thumbnail's text). */
export function dateAt(position: number, now: { currentTime: number; playing: Date | null }): Date | null {
  return now.playing ? new Date(now.playing.getTime() + (position - now.currentTime) * 1000) : null;
}

/** Reads a storyboard's VTT (null when there is none, or not yet). */
export async function loadStoryboard(url: string, signal?: AbortSignal): Promise<Storyboard | null> {
  const response = await fetch(url, { signal });
  if (!response.ok) return null;
  return parseStoryboard(await response.text(), response.url || url);
}
