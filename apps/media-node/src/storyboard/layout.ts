/**
 * A storyboard's layout (docs/decisions.md, "Storyboards (issue 35)"): a thumbnail (tile) every INTERVAL_SECONDS of a
 * stream's rewind window, VOD or clip, TILE_WIDTH wide, tiled COLUMNS × ROWS to a sprite sheet (one JPEG), and the
 * WebVTT that names each interval's tile as `<sheet>#xywh=x,y,w,h`. Pure: what is a tile, where it sits, the VTT.
 */

/** A tile every this many seconds at least (the first keyframe at or after it: a segment starts on one). */
export const INTERVAL_SECONDS = 2;
export const TILE_WIDTH = 160;
export const COLUMNS = 5;
export const ROWS = 5;
export const TILES_PER_SHEET = COLUMNS * ROWS;
/** A segment starting this little before the next tile's time still starts it (segments' lengths wobble). */
const TOLERANCE_MS = 250;

export const VTT_FILE = 'storyboard.vtt';
export const sheetFile = (sheet: number) => `storyboard-${sheet}.jpg`;
const SHEET = /^storyboard-(\d{1,9})\.jpg$/;

/** The sheet a file name asks for; null for any other name. */
export function parseSheetFile(name: string): number | null {
  const found = SHEET.exec(name);
  return found ? Number(found[1]) : null;
}

/** Whether a file name is a storyboard's (its VTT or one of its sheets). */
export const isStoryboardFile = (name: string): boolean => name === VTT_FILE || parseSheetFile(name) !== null;

export interface TileSize {
  width: number;
  height: number;
}

/** A tile's size for a picture of `width` × `height`: TILE_WIDTH wide, the height even and of the picture's aspect. */
export function tileSize(width: number, height: number): TileSize {
  if (!(width > 0) || !(height > 0)) return { width: TILE_WIDTH, height: Math.round((TILE_WIDTH * 9) / 32) * 2 };
  return { width: TILE_WIDTH, height: Math.max(2, Math.round((TILE_WIDTH * height) / width / 2) * 2) };
}

/** Where the tile in `slot` (0-based, row by row) sits on its sheet. */
export function tileRect(slot: number, size: TileSize): { x: number; y: number; w: number; h: number } {
  return {
    x: (slot % COLUMNS) * size.width,
    y: Math.floor(slot / COLUMNS) * size.height,
    w: size.width,
    h: size.height,
  };
}

/** A tile as placed: its segment (a keyframe at its start), its sheet and slot. */
export interface Tile {
  msn: number;
  period: number;
  /** The program date of its keyframe, ms. */
  from: number;
  /** Until when it stands for the stream (the end of the last segment before the next tile), ms. */
  until: number;
  sheet: number;
  slot: number;
}

/**
 * Where a segment's keyframe goes, given the last tile placed: null when it is no new tile (less than the interval
 * after the last one, in the same period); else its sheet and slot — a new sheet after a full or closed one, or for
 * a new period (a sheet is made from one period's init segment).
 */
export function placeTile(
  last: Pick<Tile, 'from' | 'period' | 'sheet' | 'slot'> | undefined,
  segment: { programDate: number; period: number },
  /** The last tile's sheet takes no more (one of its tiles left the window). */
  sheetClosed = false,
): { sheet: number; slot: number } | null {
  if (!last) return { sheet: 0, slot: 0 };
  const samePeriod = segment.period === last.period;
  if (samePeriod && segment.programDate < last.from + INTERVAL_SECONDS * 1000 - TOLERANCE_MS) return null;
  if (samePeriod && !sheetClosed && last.slot + 1 < TILES_PER_SHEET) return { sheet: last.sheet, slot: last.slot + 1 };
  return { sheet: last.sheet + 1, slot: 0 };
}

export interface Cue {
  /** Seconds on the VTT's timeline. */
  start: number;
  end: number;
  sheet: number;
  slot: number;
  size: TileSize;
}

/** A WebVTT timestamp (hh:mm:ss.ttt; hours go past 99 when they must). */
export function vttTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const secs = (ms / 1000) % 60;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${secs.toFixed(3).padStart(6, '0')}`;
}

/**
 * The storyboard's WebVTT: one cue per tile, its text `<sheet file>#xywh=x,y,w,h` (each URI decorated by `uri`: a
 * session's query). `programDate` (a live window's, ms): the program date of the timeline's 0, said in the header as
 * `X-PROGRAM-DATE-TIME` so a player maps a position of its own timeline to the cue (a live playlist's timeline has
 * no 0 a player shares); a VOD's or clip's timeline is its media time from 0.
 */
export function renderVtt(cues: Cue[], o: { uri?: (file: string) => string; programDate?: number } = {}): string {
  const uri = o.uri ?? ((file: string) => file);
  const lines = ['WEBVTT'];
  if (o.programDate !== undefined) lines.push(`X-PROGRAM-DATE-TIME=${new Date(o.programDate).toISOString()}`);
  lines.push('');
  for (const cue of cues) {
    const { x, y, w, h } = tileRect(cue.slot, cue.size);
    lines.push(
      `${vttTime(cue.start)} --> ${vttTime(Math.max(cue.end, cue.start + 0.001))}`,
      `${uri(sheetFile(cue.sheet))}#xywh=${x},${y},${w},${h}`,
      '',
    );
  }
  return lines.join('\n');
}

/** A live window's cues: its tiles on the program-date timeline whose 0 is the first tile's keyframe. */
export function windowCues(tiles: Tile[], sizeOf: (sheet: number) => TileSize): { cues: Cue[]; programDate: number } {
  const programDate = tiles[0]?.from ?? 0;
  const cues = tiles.map((tile) => ({
    start: (tile.from - programDate) / 1000,
    end: (tile.until - programDate) / 1000,
    sheet: tile.sheet,
    slot: tile.slot,
    size: sizeOf(tile.sheet),
  }));
  return { cues, programDate };
}

/**
 * A VOD's cues: its tiles on its media timeline (its segments' durations one after the other from 0, a gap between
 * periods being none of it), each until the next tile or the VOD's end. Tiles of segments it does not hold are left out.
 */
export function vodCues(
  tiles: Tile[],
  segments: Array<{ msn: number; duration: number }>,
  sizeOf: (sheet: number) => TileSize,
): Cue[] {
  const startOf = new Map<number, number>();
  let total = 0;
  for (const segment of segments) {
    startOf.set(segment.msn, total);
    total += segment.duration;
  }
  const held = tiles.filter((tile) => startOf.has(tile.msn));
  return held.map((tile, index) => {
    const next = held[index + 1];
    return {
      start: startOf.get(tile.msn) ?? 0,
      end: next ? (startOf.get(next.msn) ?? total) : total,
      sheet: tile.sheet,
      slot: tile.slot,
      size: sizeOf(tile.sheet),
    };
  });
}

/**
 * A clip's cues: a tile per keyframe kept (`times`, seconds of the clip, one every INTERVAL_SECONDS at least), on
 * sheets of TILES_PER_SHEET in order, each until the next tile or the clip's end. The first is at 0 (the clip starts
 * on a keyframe).
 */
export function clipCues(times: number[], duration: number, size: TileSize): Cue[] {
  const starts = times.map((time, index) => (index === 0 ? 0 : Math.max(0, time)));
  return starts.map((start, index) => ({
    start,
    end: Math.max(start, starts[index + 1] ?? duration),
    sheet: Math.floor(index / TILES_PER_SHEET),
    slot: index % TILES_PER_SHEET,
    size,
  }));
}

/** The select expression that keeps one keyframe per INTERVAL_SECONDS: the first, then each one far enough after. */
export const INTERVAL_SELECT = `isnan(prev_selected_t)+gte(t-prev_selected_t,${INTERVAL_SECONDS - TOLERANCE_MS / 1000})`;
