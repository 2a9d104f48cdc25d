import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyFile, link, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportBody } from '../control-plane.js';
import { writeFileDurably } from '../durable-file.js';
import type { DiskBudget, DvrStore, StoredSegment } from '../ll-hls/dvr-store.js';
import { namesIn } from '../ll-hls/dvr-store.js';
import { initFile, parseLowLatencyFile, segmentFile } from '../ll-hls/files.js';
import { renderPlaylist } from '../ll-hls/playlist.js';
import type { Logger } from '../log.js';
import { type Cue, parseSheetFile, renderVtt, sheetFile } from '../storyboard/layout.js';
import type { WindowStoryboard } from '../storyboard/window.js';

/** What a VOD's folder says of it (`vod.json`, written once its files are all there). */
interface VodManifest {
  id: string;
  /** The stream's id, under the name `vod.json` files have always used (VODs kept by a previous run read back). */
  inputId: string;
  segments: Array<StoredSegment & { bytes: number }>;
  /** Its storyboard's cues (on its media timeline), their sheets linked beside its segments; none: no storyboard. */
  storyboard?: Cue[];
}

interface Kept extends VodManifest {
  dir: string;
  bytes: number;
}

const MANIFEST = 'vod.json';
/** How often the disk budget is checked for VODs to evict, besides when a rewind window asks for room. */
const SWEEP_MS = 5_000;

export interface VodLibraryDeps {
  /** `<data>/vod`: a folder per stream, in it one per VOD (`<vod id>/`). */
  dir: string;
  /** The rewind windows' disk budget (DVR_MAX_BYTES), which the VODs share. */
  budget: DiskBudget;
  send(report: ReportBody): void;
  log?: Logger;
}

/**
 * The last session of each stream with a rewind window, kept after its push ended as an HLS VOD (docs/decisions.md,
 * "VOD of an ended stream"): the window's segment files are hard-linked into `<data>/vod/<stream>/<vod id>/` (no
 * copy; the window's own folder goes when its packager does), listed by a VOD playlist, and reported to the control
 * plane. A VOD counts in the rewind disk budget and is the first thing to go when that budget is exceeded (oldest
 * first), before any live window's segments; the stream's next VOD replaces it. Either way it is reported Evicted.
 * A node that restarts lists again the VODs on its disk.
 */
export class VodLibrary {
  private readonly kept = new Map<string, Kept>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly deps: VodLibraryDeps) {
    this.restore();
    deps.budget.reclaim = () => this.evictOverBudget();
    this.sweeper = setInterval(() => this.evictOverBudget(), SWEEP_MS);
    this.sweeper.unref();
  }

  /**
   * The push of `streamId` ended (its reconnect grace is over): what its rewind window holds, once written, becomes
   * the stream's VOD, replacing the previous one.
   */
  async keep(streamId: string, store: DvrStore, storyboard: WindowStoryboard | null = null): Promise<void> {
    await store.settled();
    const id = randomUUID();
    const dir = join(this.deps.dir, streamId, id);
    const segments: Kept['segments'] = [];
    let cues: Cue[] = [];
    try {
      await mkdir(dir, { recursive: true });
      const periods = new Set<number>();
      for (const segment of store.segments()) {
        // A segment the window dropped meanwhile (its file is gone) is left out: the VOD has a gap there.
        if (!(await linkOrCopy(store.path(segment.msn), join(dir, segmentFile(segment.msn))))) continue;
        if (!periods.has(segment.period)) {
          if (!(await linkOrCopy(store.initPath(segment.period), join(dir, initFile(segment.period))))) continue;
          periods.add(segment.period);
        }
        segments.push(segment);
      }
      if (segments.length === 0) throw new Error('no segment of the window is left');
      cues = storyboard ? await keepStoryboard(storyboard, store.dir, dir, segments) : [];
      await writeFileDurably(
        join(dir, MANIFEST),
        JSON.stringify({ id, inputId: streamId, segments, storyboard: cues } satisfies VodManifest),
      );
    } catch (error) {
      this.deps.log?.error(`no VOD of ${streamId}: ${(error as Error).message}`);
      await rm(dir, { recursive: true, force: true });
      return;
    }
    const previous = this.kept.get(streamId);
    if (previous) this.evict(previous);
    const bytes = sum(segments.map((segment) => segment.bytes));
    const vod: Kept = { id, inputId: streamId, segments, storyboard: cues, dir, bytes };
    this.kept.set(streamId, vod);
    store.handOver();
    this.deps.budget.used += vod.bytes;
    this.report(vod, 'Available');
    this.evictOverBudget();
  }

  has(streamId: string): boolean {
    return this.kept.has(streamId);
  }

  /** The stream's VOD playlist, each URI decorated by `uri` (a session's query); null when it has none. */
  playlist(streamId: string, uri: (file: string) => string): string | null {
    const vod = this.kept.get(streamId);
    if (!vod) return null;
    return renderPlaylist({
      segments: vod.segments.map((segment) => ({
        msn: segment.msn,
        period: segment.period,
        discontinuity: segment.periodStart,
        programDate: segment.programDate,
        duration: segment.duration,
        complete: true,
        parts: [],
      })),
      partTarget: 1,
      discontinuitySequence: 0,
      ended: true,
      skip: false,
      uri,
      renditionReports: [],
      vod: true,
    });
  }

  /** The WebVTT of the stream's VOD storyboard, each sheet's URI decorated by `uri`; null when it has none. */
  storyboard(streamId: string, uri: (file: string) => string): string | null {
    const cues = this.kept.get(streamId)?.storyboard;
    return cues && cues.length > 0 ? renderVtt(cues, { uri }) : null;
  }

  /** An init segment, segment or storyboard sheet the stream's VOD lists; null for any other name. */
  async file(streamId: string, name: string): Promise<Buffer | null> {
    const vod = this.kept.get(streamId);
    const sheet = parseSheetFile(name);
    if (vod && sheet !== null)
      return vod.storyboard?.some((cue) => cue.sheet === sheet)
        ? readFile(join(vod.dir, name)).catch(() => null)
        : null;
    const asked = parseLowLatencyFile(name);
    if (!vod || !asked || asked.kind === 'part') return null;
    const listed =
      asked.kind === 'init'
        ? vod.segments.some((segment) => segment.period === asked.period)
        : vod.segments.some((segment) => segment.msn === asked.msn);
    return listed ? readFile(join(vod.dir, name)).catch(() => null) : null;
  }

  close(): void {
    clearInterval(this.sweeper);
    this.deps.budget.reclaim = null;
  }

  /** While the budget is exceeded, the oldest VODs go (synchronously counted out; their files go after). */
  private evictOverBudget(): void {
    const { budget } = this.deps;
    while (budget.used > budget.maxBytes) {
      const oldest = [...this.kept.values()].sort((a, b) => endOf(a) - endOf(b))[0];
      if (!oldest) return;
      this.evict(oldest);
    }
  }

  private evict(vod: Kept): void {
    if (this.kept.get(vod.inputId) === vod) this.kept.delete(vod.inputId);
    this.deps.budget.used -= vod.bytes;
    this.report(vod, 'Evicted');
    void rm(vod.dir, { recursive: true, force: true });
  }

  private report(vod: Kept, state: 'Available' | 'Evicted'): void {
    const first = vod.segments[0];
    this.deps.send({
      kind: 'vod',
      vodId: vod.id,
      streamId: vod.inputId,
      state,
      startedAt: new Date(first?.programDate ?? 0).toISOString(),
      endedAt: new Date(endOf(vod)).toISOString(),
      duration: Number(sum(vod.segments.map((segment) => segment.duration)).toFixed(3)),
      size: vod.bytes,
    });
  }

  /**
   * The VODs a previous run left: the newest complete one of each stream is kept (and reported again, in case its
   * report was lost with that run), everything else goes.
   */
  private restore(): void {
    for (const streamId of namesIn(this.deps.dir)) {
      const found: Kept[] = [];
      for (const id of namesIn(join(this.deps.dir, streamId))) {
        const dir = join(this.deps.dir, streamId, id);
        const manifest = readManifest(dir);
        if (manifest?.id === id && manifest.inputId === streamId)
          found.push({ ...manifest, dir, bytes: sum(manifest.segments.map((segment) => segment.bytes)) });
        else void rm(dir, { recursive: true, force: true });
      }
      found.sort((a, b) => endOf(b) - endOf(a));
      const [newest, ...older] = found;
      for (const vod of older) void rm(vod.dir, { recursive: true, force: true });
      if (!newest) continue;
      this.kept.set(streamId, newest);
      this.deps.budget.used += newest.bytes;
      this.report(newest, 'Available');
    }
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

function endOf(vod: VodManifest): number {
  const last = vod.segments.at(-1);
  return last ? last.programDate + last.duration * 1000 : 0;
}

/**
 * The storyboard of the VOD of `segments` (docs/decisions.md, "Storyboards"): once the window's last sheet is made,
 * its cues on the VOD's media timeline, the sheets they name linked from the window's folder into the VOD's. None when
 * a sheet cannot be linked (the VOD plays without a storyboard).
 */
async function keepStoryboard(
  storyboard: WindowStoryboard,
  from: string,
  to: string,
  segments: Array<{ msn: number; duration: number }>,
): Promise<Cue[]> {
  await storyboard.settled();
  const cues = storyboard.vodCues(segments);
  for (const sheet of new Set(cues.map((cue) => cue.sheet)))
    if (!(await linkOrCopy(join(from, sheetFile(sheet)), join(to, sheetFile(sheet))))) return [];
  return cues;
}

/** A hard link (same disk, no copy), or a copy where links are refused; false when the source is gone. */
async function linkOrCopy(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    return copyFile(from, to).then(
      () => true,
      () => false,
    );
  }
}

function readManifest(dir: string): VodManifest | null {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as VodManifest;
    return Array.isArray(manifest.segments) && manifest.segments.length > 0 ? manifest : null;
  } catch {
    return null;
  }
}
