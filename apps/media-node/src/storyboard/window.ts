import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readInitTracks } from '../ll-hls/fmp4-boxes.js';
import {
  type Cue,
  placeTile,
  sheetFile,
  TILES_PER_SHEET,
  type Tile,
  type TileSize,
  tileSize,
  vodCues,
  windowCues,
} from './layout.js';
import { firstFragment, renderSheet } from './sheet.js';

/** What a storyboard reads of its rewind window (ll-hls/dvr-store.ts). */
export interface StoryboardSource {
  /** The window's folder: the sheets are written beside its segments, and go with it. */
  dir: string;
  read(msn: number): Promise<Buffer | null>;
  init(period: number): Promise<Buffer | null>;
}

interface Sheet {
  period: number;
  size: TileSize;
  /** Tiles placed on it, and how many of them its file on disk shows (0: no file yet). */
  tiles: number;
  built: number;
  /** Its file is being made now (at most one per stream). */
  building: boolean;
  /** A tile of it left the window: it is made no more (its slots would move), new tiles go to a new sheet. */
  lost: boolean;
  /** Making it with this many tiles failed: not tried again before a new tile comes. */
  failedAt: number;
}

/** A sheet with new tiles is made again at most this often while the push goes on (the end makes it at once). */
const REBUILD_GAP_MS = 10_000;
/**
 * A storyboard nobody asked for this long makes only full sheets (one run per 50 s of stream): the open sheet is made
 * again every REBUILD_GAP_MS only while someone looks (a player reads the VTT every few seconds).
 */
const WATCHED_MS = 60_000;

/**
 * The storyboard of one stream's rewind window (docs/decisions.md, "Storyboards (issue 35)"): a tile for the first
 * segment (a keyframe) at or after every INTERVAL_SECONDS as the window stores it, on sheets of up to 25 tiles of
 * one period, made by one ffmpeg at a time from those segments' first fragments (keyframes only). A full sheet is
 * made once; the open one again as tiles come (at most every REBUILD_GAP_MS) while a player reads the VTT; a sheet
 * goes once every one of its tiles left the window.
 */
export class WindowStoryboard {
  private readonly tiles: Tile[] = [];
  private readonly sheets = new Map<number, Sheet>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private lastRunAt = 0;
  private closed = false;
  /** `settled()` asked for: what is pending is made now, without the gap. */
  private hurry = false;
  /** When a player last read its VTT. */
  private askedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly source: StoryboardSource,
    private readonly ffmpeg: string,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** A segment the window stored (in order of the window): a new tile when it starts the next interval. */
  stored(segment: { msn: number; period: number; programDate: number; duration: number }): void {
    if (this.closed) return;
    const last = this.tiles.at(-1);
    const end = segment.programDate + segment.duration * 1000;
    if (last && segment.msn <= last.msn) return;
    const place = placeTile(last, segment, last !== undefined && this.sheets.get(last.sheet)?.lost !== false);
    if (!place) {
      if (last && segment.period === last.period) last.until = Math.max(last.until, end);
      return;
    }
    this.tiles.push({ msn: segment.msn, period: segment.period, from: segment.programDate, until: end, ...place });
    const sheet = this.sheets.get(place.sheet);
    if (sheet) sheet.tiles++;
    else this.sheets.set(place.sheet, newSheet(segment.period));
    this.schedule();
  }

  /** A segment left the window: its tile goes, and a sheet with no tile left goes from the disk. */
  removed(msn: number): void {
    while (this.tiles.length > 0 && (this.tiles[0]?.msn ?? Infinity) <= msn) {
      const [gone] = this.tiles.splice(0, 1);
      if (!gone) break;
      const sheet = this.sheets.get(gone.sheet);
      if (sheet) sheet.lost = true;
      if (!this.tiles.some((tile) => tile.sheet === gone.sheet)) {
        this.sheets.delete(gone.sheet);
        void rm(this.path(gone.sheet), { force: true });
      }
    }
  }

  /** The window goes (its folder with it): nothing more is made. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Once every tile placed so far is on a sheet on disk (or its sheet failed): a VOD takes the storyboard then. */
  async settled(): Promise<void> {
    this.hurry = true;
    try {
      for (let rounds = 0; rounds < 1_000 && !this.closed; rounds++) {
        if (this.running) await this.running;
        else if (this.pending()) await this.runOnce();
        else return;
      }
    } finally {
      this.hurry = false;
    }
  }

  /** A player reads the VTT: the open sheet follows the window (every REBUILD_GAP_MS) while it does. */
  asked(): void {
    this.askedAt = Date.now();
    this.schedule();
  }

  /** The tiles on a sheet on disk (`listed`: whose segment a viewer may read), for a live window's VTT. */
  windowCues(listed: (msn: number) => boolean): { cues: Cue[]; programDate: number } {
    return windowCues(this.visible(listed), (sheet) => this.sizeOf(sheet));
  }

  /** The cues of a VOD of `segments` of this window, on its media timeline. */
  vodCues(segments: Array<{ msn: number; duration: number }>): Cue[] {
    return vodCues(
      this.visible(() => true),
      segments,
      (sheet) => this.sizeOf(sheet),
    );
  }

  /** The file of a sheet a listed tile is on; null for any other. */
  sheetPath(sheet: number, listed: (msn: number) => boolean = () => true): string | null {
    return this.visible(listed).some((tile) => tile.sheet === sheet) ? this.path(sheet) : null;
  }

  /** The sheets on disk now. */
  sheetsOnDisk(): number[] {
    return [...this.sheets].flatMap(([n, sheet]) => (sheet.built > 0 ? [n] : []));
  }

  private visible(listed: (msn: number) => boolean): Tile[] {
    return this.tiles.filter((tile) => tile.slot < (this.sheets.get(tile.sheet)?.built ?? 0) && listed(tile.msn));
  }

  private sizeOf(sheet: number): TileSize {
    return this.sheets.get(sheet)?.size ?? tileSize(0, 0);
  }

  private path(sheet: number): string {
    return join(this.source.dir, sheetFile(sheet));
  }

  /**
   * The oldest sheet whose file shows fewer tiles than it has — and, unless someone looks or `settled()` waits, that
   * will take no more (full, or followed by another sheet).
   */
  private pending(): number | null {
    const watched = this.hurry || Date.now() - this.askedAt < WATCHED_MS;
    const newest = Math.max(-1, ...this.sheets.keys());
    for (const [n, sheet] of this.sheets) {
      if (sheet.built >= sheet.tiles || sheet.tiles <= sheet.failedAt || sheet.building || sheet.lost) continue;
      if (watched || n < newest || sheet.tiles >= TILES_PER_SHEET) return n;
    }
    return null;
  }

  private schedule(): void {
    if (this.closed || this.running || this.timer || this.pending() === null) return;
    const wait = this.hurry ? 0 : Math.max(0, this.lastRunAt + REBUILD_GAP_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runOnce();
    }, wait);
    this.timer.unref();
  }

  /** Makes the oldest pending sheet again with every tile it has now. */
  private runOnce(): Promise<void> {
    if (this.running) return this.running;
    const n = this.pending();
    const sheet = n === null ? undefined : this.sheets.get(n);
    if (n === null || !sheet) return Promise.resolve();
    this.running = this.build(n, sheet).finally(() => {
      this.running = null;
      this.lastRunAt = Date.now();
      this.schedule();
    });
    return this.running;
  }

  private async build(n: number, sheet: Sheet): Promise<void> {
    const tiles = this.tiles.filter((tile) => tile.sheet === n);
    const count = sheet.tiles;
    sheet.building = true;
    try {
      const init = await this.source.init(sheet.period);
      if (!init) throw new Error(`no init segment of period ${sheet.period}`);
      const video = readInitTracks(init).find((track) => track.kind === 'video');
      if (!video) throw new Error('no video');
      sheet.size = tileSize(video.width ?? 0, video.height ?? 0);
      const fragments: Buffer[] = [init];
      for (const tile of tiles) {
        const segment = await this.source.read(tile.msn);
        // A tile whose segment is gone (a failed write) would move every later one to the wrong slot.
        if (!segment) throw new Error(`segment ${tile.msn} is not on disk`);
        fragments.push(firstFragment(segment));
      }
      if (this.closed) return;
      await renderSheet(this.ffmpeg, Buffer.concat(fragments), sheet.size, this.path(n));
      sheet.built = Math.max(sheet.built, count);
    } catch (error) {
      // Not made again before a new tile comes: a failing sheet must not spin ffmpeg.
      sheet.failedAt = count;
      if (!this.closed) this.log(`storyboard sheet ${n} not made: ${(error as Error).message}`);
    } finally {
      sheet.building = false;
    }
  }
}

const newSheet = (period: number): Sheet => ({
  period,
  size: tileSize(0, 0),
  tiles: 1,
  built: 0,
  building: false,
  lost: false,
  failedAt: 0,
});
