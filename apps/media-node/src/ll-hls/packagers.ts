import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamEvents } from '../streams/events.js';
import { DiskBudget, DvrStore } from './dvr-store.js';
import { LowLatencyPackager } from './packager.js';

/** A part's target duration: ffmpeg cuts a fragment this long (or at a keyframe), one LL-HLS part each. */
export const PART_SECONDS = 1 / 3;
/** A new segment starts at the first keyframe once the current one is this long (1 s GOPs: a segment per GOP). */
const SEGMENT_MIN_SECONDS = 1;
/** Segments kept in memory per stream, and the bytes they may take (the oldest go first). */
const KEEP_SEGMENTS = 12;
const MAX_BYTES = 48 * 1024 * 1024;
/** After the reconnect grace, an ended playlist (EXT-X-ENDLIST) is served this long, as a Standard one is. */
const ENDED_LINGER_MS = 30_000;

interface Entry {
  packager: LowLatencyPackager;
  /** Its rewind window on disk, made when an output first asks for one. */
  store: DvrStore | null;
  /** Set once the stream is gone: the entry is forgotten when it fires. */
  linger: NodeJS.Timeout | null;
}

/**
 * The LL-HLS packagers of the node's streams, by input id. A packager outlives its push: through the reconnect
 * grace its playlist stays (a resumed push continues it after an EXT-X-DISCONTINUITY), then it ends
 * (EXT-X-ENDLIST) and lingers ENDED_LINGER_MS — the rule Standard playlists follow (PlaylistLifetimes).
 */
export class LowLatencyPackagers {
  private readonly entries = new Map<string, Entry>();
  /** What every stream's rewind window takes on this node's disk, and may take (DVR_MAX_BYTES). */
  readonly disk: DiskBudget;
  private readonly dvrDir: string;

  constructor(events: StreamEvents, o: { dataDir: string; dvrMaxBytes: number }) {
    this.disk = new DiskBudget(o.dvrMaxBytes);
    if (!o.dataDir) throw new Error('the LL-HLS packagers need the node data directory');
    this.dvrDir = join(o.dataDir, 'dvr');
    // A previous run's windows are not served again (their packagers are gone): their disk is freed.
    rmSync(this.dvrDir, { recursive: true, force: true });
    events.subscribe({ gone: (inputId) => this.end(inputId) });
  }

  /** Keeps `windowSeconds` of the input's stream on disk for its outputs' rewind (0: the live window only). */
  setDvr(inputId: string, windowSeconds: number): void {
    const entry = this.entries.get(inputId);
    if (!entry) return;
    if (windowSeconds > 0) entry.store ??= new DvrStore(join(this.dvrDir, inputId), this.disk);
    entry.packager.setDvr(entry.store && windowSeconds > 0 ? { store: entry.store, windowSeconds } : null);
  }

  /** The packager a new push (or a new packaging ffmpeg of it) writes to: the stream's, continued, or a new one. */
  begin(inputId: string): LowLatencyPackager {
    const entry = this.entries.get(inputId);
    if (entry && entry.linger === null) {
      entry.packager.startPeriod();
      return entry.packager;
    }
    this.forget(inputId);
    const packager = new LowLatencyPackager({
      partTarget: PART_SECONDS,
      segmentMin: SEGMENT_MIN_SECONDS,
      keepSegments: KEEP_SEGMENTS,
      maxBytes: MAX_BYTES,
    });
    this.entries.set(inputId, { packager, linger: null, store: null });
    return packager;
  }

  /** The packager whose playlist an input's Low latency outputs serve now; null when none runs. */
  of(inputId: string): LowLatencyPackager | null {
    return this.entries.get(inputId)?.packager ?? null;
  }

  /** No output of the input is Low latency any more, or the node stops: its packager goes at once. */
  forget(inputId: string): void {
    const entry = this.entries.get(inputId);
    if (!entry) return;
    if (entry.linger) clearTimeout(entry.linger);
    this.entries.delete(inputId);
    void entry.store?.clear();
  }

  /** What the packagers hold in memory, for the node's health and metrics. */
  memoryBytes(): number {
    let bytes = 0;
    for (const { packager } of this.entries.values()) bytes += packager.memoryBytes();
    return bytes;
  }

  close(): void {
    for (const inputId of [...this.entries.keys()]) this.forget(inputId);
  }

  private end(inputId: string): void {
    const entry = this.entries.get(inputId);
    if (!entry || entry.linger) return;
    entry.packager.end();
    entry.linger = setTimeout(() => {
      if (this.entries.get(inputId) === entry) this.forget(inputId);
    }, ENDED_LINGER_MS);
    entry.linger.unref();
  }
}
