import { appendFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { initFile, segmentFile } from './files.js';

/** The bytes every stream's rewind window may take on a node's disk together (DVR_MAX_BYTES), and what they take. */
export class DiskBudget {
  used = 0;
  /**
   * Frees what may go before a live window's oldest segments when the budget is exceeded (the kept VODs of ended
   * pushes, vod/): called, synchronously, before a window measures its excess.
   */
  reclaim: (() => void) | null = null;
  constructor(readonly maxBytes: number) {}
}

/** What the playlist needs of a segment on disk to list it again after a restart. */
export interface StoredSegment {
  msn: number;
  period: number;
  /** The first of its period: a discontinuity before it. */
  periodStart: boolean;
  /** EXT-X-PROGRAM-DATE-TIME, ms. */
  programDate: number;
  duration: number;
}

/** A window read back from disk: its segments (oldest first, consecutive) and the init segment of each period. */
export interface RestoredWindow {
  segments: Array<StoredSegment & { bytes: number }>;
  inits: Map<number, Buffer>;
}

/** Told of what a window stores (in the window's order) and drops (its storyboard: storyboard/window.ts). */
export interface DvrObserver {
  stored(segment: StoredSegment): void;
  removed(msn: number): void;
  close(): void;
}

/** The index of a window's segments (appended with each: its time says when the window was last written). */
export const INDEX = 'index.jsonl';
/** The index is rewritten once it names this many more segments than the window holds (it only grows otherwise). */
const INDEX_SLACK = 1_000;

/**
 * One stream's rewind window on disk (`<data>/dvr/<stream id>/<variant>/`): the complete segments the packager no
 * longer keeps in memory (`seg-<msn>.m4s`), written as they close and removed as they leave the window (or the
 * node's budget); the init segment of each period (`init-<period>.mp4`); and an index, one JSON line per segment
 * written after its file, from which a node that restarted (even killed) lists the window again (`restore`).
 */
export class DvrStore {
  private readonly sizes = new Map<number, number>();
  private readonly listed = new Map<number, StoredSegment>();
  private readonly initsWritten = new Set<number>();
  /** Index lines naming segments gone since it was last written whole. */
  private stale = 0;
  private ready: Promise<unknown> | null = null;
  /** Its files' bytes count as a VOD's (hard links to the same files, vod/), no longer in the budget as its own. */
  private handedOver = false;
  /** Writes under way (a VOD of the ended push waits for them: vod/). */
  private readonly writing = new Set<Promise<boolean>>();
  /** The last write handed to `store` (each waits for the one before: `write` never rejects). */
  private previous: Promise<unknown> = Promise.resolve();
  /** Told of each segment stored and removed (the window's storyboard). */
  observer: DvrObserver | null = null;

  constructor(
    readonly dir: string,
    private readonly budget: DiskBudget,
  ) {}

  /**
   * Reads back the window a previous run of the node left in `dir`: the consecutive segments up to the newest
   * that are still within `windowSeconds` of `now` and whose files and init are there. Everything else in the
   * folder goes, and the index is written again for what stays (counted in the budget). Null when nothing stays.
   */
  restore(windowSeconds: number, now: number): RestoredWindow | null {
    const lines = readText(join(this.dir, INDEX))?.split('\n') ?? [];
    const byMsn = new Map<number, StoredSegment>();
    for (const line of lines) {
      const segment = parseSegment(line);
      if (segment) byMsn.set(segment.msn, segment);
    }
    const kept: RestoredWindow['segments'] = [];
    const inits = new Map<number, Buffer>();
    const oldestDate = now - windowSeconds * 1000;
    // From the newest back, while consecutive, in the window, and readable.
    for (let msn = Math.max(-1, ...byMsn.keys()); msn >= 0; msn--) {
      const segment = byMsn.get(msn);
      if (!segment || segment.programDate + segment.duration * 1000 < oldestDate) break;
      const bytes = sizeOf(this.path(msn));
      const init = inits.get(segment.period) ?? readBytes(this.initPath(segment.period));
      if (bytes === null || !init) break;
      inits.set(segment.period, init);
      kept.unshift({ ...segment, bytes });
    }
    const keptNames = new Set([
      INDEX,
      ...kept.map((segment) => segmentFile(segment.msn)),
      ...[...inits.keys()].map(initFile),
    ]);
    for (const name of namesIn(this.dir))
      if (!keptNames.has(name)) rmSync(join(this.dir, name), { force: true, recursive: true });
    if (kept.length === 0) {
      rmSync(this.dir, { recursive: true, force: true });
      return null;
    }
    for (const segment of kept) {
      this.sizes.set(segment.msn, segment.bytes);
      this.listed.set(segment.msn, segment);
      this.budget.used += segment.bytes;
    }
    for (const period of inits.keys()) this.initsWritten.add(period);
    this.rewriteIndex();
    for (const segment of kept) this.observer?.stored(segment);
    return { segments: kept, inits };
  }

  /**
   * Writes a complete segment (and its period's init segment, once), then names it in the index; resolves true
   * once it is on disk (false when writing failed: it stays in memory).
   */
  store(segment: StoredSegment, data: Buffer, init: Buffer): Promise<boolean> {
    // One after another, in the window's order: side by side, a later segment's write could end first (the first
    // one also writes its period's init) and the storyboard, told of it first, put the first tile on it — the
    // window's first segment then had none (a loaded run's VOD storyboard started at 1 s) — and the index
    // named segments out of order.
    const written = this.previous.then(() => this.write(segment, data, init));
    this.previous = written;
    this.writing.add(written);
    void written.finally(() => this.writing.delete(written));
    return written;
  }

  /** Once every segment handed to `store` so far is on disk (or failed). */
  async settled(): Promise<void> {
    await Promise.all([...this.writing]);
  }

  /** The segments on disk now, oldest first, with their sizes. */
  segments(): Array<StoredSegment & { bytes: number }> {
    return [...this.listed.values()]
      .sort((a, b) => a.msn - b.msn)
      .map((segment) => ({ ...segment, bytes: this.sizes.get(segment.msn) ?? 0 }));
  }

  private async write(segment: StoredSegment, data: Buffer, init: Buffer): Promise<boolean> {
    this.ready ??= mkdir(this.dir, { recursive: true });
    try {
      await this.ready;
      if (!this.initsWritten.has(segment.period)) {
        await writeFile(this.initPath(segment.period), init);
        this.initsWritten.add(segment.period);
      }
      await writeFile(this.path(segment.msn), data);
      // After the file: a line names only a segment that is there (a node killed between the two loses it only).
      appendFileSync(join(this.dir, INDEX), `${JSON.stringify(segment)}\n`);
    } catch {
      return false;
    }
    this.sizes.set(segment.msn, data.length);
    this.listed.set(segment.msn, segment);
    if (!this.handedOver) this.budget.used += data.length;
    this.observer?.stored(segment);
    return true;
  }

  async read(msn: number): Promise<Buffer | null> {
    if (!this.sizes.has(msn)) return null;
    return readFile(this.path(msn)).catch(() => null);
  }

  remove(msn: number): void {
    const size = this.sizes.get(msn);
    if (size === undefined) return;
    this.sizes.delete(msn);
    this.listed.delete(msn);
    if (!this.handedOver) this.budget.used -= size;
    this.observer?.removed(msn);
    void rm(this.path(msn), { force: true });
    if (++this.stale > INDEX_SLACK) this.rewriteIndex();
  }

  /** By how many bytes the node's rewind windows exceed their disk budget (0 or less: within it). */
  overBudgetBy(): number {
    if (this.budget.used > this.budget.maxBytes) this.budget.reclaim?.();
    return this.budget.used - this.budget.maxBytes;
  }

  sizeOf(msn: number): number {
    return this.sizes.get(msn) ?? 0;
  }

  /** What it takes in the budget (its segments). */
  bytes(): number {
    let total = 0;
    for (const size of this.sizes.values()) total += size;
    return total;
  }

  /**
   * The ended push's VOD (vod/) links these files and counts their bytes from now on: counted twice, a window of
   * more than half the budget would have its own VOD evicted at once.
   */
  handOver(): void {
    if (!this.handedOver) this.budget.used -= this.bytes();
    this.handedOver = true;
  }

  /** Everything goes (the stream's packager is gone). */
  async clear(): Promise<void> {
    this.observer?.close();
    for (const msn of [...this.sizes.keys()]) this.remove(msn);
    await rm(this.dir, { recursive: true, force: true });
  }

  /** The node stops: the files stay for its next run, and leave this run's budget. */
  release(): void {
    this.observer?.close();
    if (!this.handedOver) this.budget.used -= this.bytes();
    this.sizes.clear();
    this.listed.clear();
  }

  private rewriteIndex(): void {
    const lines = [...this.listed.values()].map((segment) => `${JSON.stringify(segment)}\n`).join('');
    try {
      writeFileSync(join(this.dir, INDEX), lines);
      this.stale = 0;
    } catch {
      // The folder is gone (cleared meanwhile): nothing to index.
    }
  }

  path(msn: number): string {
    return join(this.dir, segmentFile(msn));
  }

  initPath(period: number): string {
    return join(this.dir, initFile(period));
  }
}

function parseSegment(line: string): StoredSegment | null {
  if (!line) return null;
  try {
    const value = JSON.parse(line) as Partial<StoredSegment>;
    const { msn, period, periodStart, programDate, duration } = value;
    const whole = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
    if (!whole(msn) || !whole(period) || !whole(programDate) || typeof periodStart !== 'boolean') return null;
    if (typeof duration !== 'number' || !(duration > 0) || duration > 60) return null;
    return { msn, period, periodStart, programDate, duration };
  } catch {
    return null;
  }
}

const readText = (path: string): string | null => readBytes(path)?.toString('utf8') ?? null;

function readBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** The file's size and time, or null when it is not there. */
export function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

const sizeOf = (path: string): number | null => statOf(path)?.size ?? null;

/** The names in a folder; none when it is not there. */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
