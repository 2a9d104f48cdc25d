import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DVR_WINDOW_MAX_MINUTES } from '@streamcloud/contract';
import { WindowStoryboard } from '../storyboard/window.js';
import type { StreamEvents } from '../streams/events.js';
import { DiskBudget, DvrStore, INDEX, namesIn, statOf } from './dvr-store.js';
import { LowLatencyPackager } from './packager.js';
import type { Continuation } from './segments.js';

/** A part's target duration: ffmpeg cuts a fragment this long (or at a keyframe), one LL-HLS part each. */
export const PART_SECONDS = 0.2;
/** A new segment starts at the first keyframe once the current one is this long (1 s GOPs: a segment per GOP). */
const SEGMENT_MIN_SECONDS = 1;
/** Segments kept in memory per stream, and the bytes they may take (the oldest go first). */
const KEEP_SEGMENTS = 12;
const MAX_BYTES = 48 * 1024 * 1024;
/** After the reconnect grace, an ended playlist (EXT-X-ENDLIST) is served this long, as a Standard one is. */
const ENDED_LINGER_MS = 30_000;
/** A rewind window left by a previous run is kept this long after it was last written: the longest window. */
const LEFTOVER_MS = DVR_WINDOW_MAX_MINUTES * 60_000;

interface Entry {
  packager: LowLatencyPackager;
  /** Its rewind window on disk, made when an output first asks for one. */
  store: DvrStore | null;
  /** The window's storyboard: of one variant per stream (the first with a window), when the node has ffmpeg. */
  storyboard: WindowStoryboard | null;
}

/** One stream's packagers: one per HLS variant of its ladder (by rendition key), or one (key null) without a ladder. */
interface StreamEntry {
  variants: Map<string | null, Entry>;
  /** The largest rewind window its outputs ask for, seconds. */
  dvrWindowSeconds: number;
  /** Set once the stream is gone: the entry is forgotten when it fires. */
  linger: NodeJS.Timeout | null;
  /** Where the variants that left stopped (a returning one goes on from there); at most one per key. */
  retired: Map<string | null, Continuation>;
}

/**
 * The LL-HLS packagers of the node's streams, by stream id (and rendition key for a ladder's variants). A packager
 * outlives its push: through the reconnect grace its playlist stays (a resumed push continues it after an
 * EXT-X-DISCONTINUITY), then it ends (EXT-X-ENDLIST) and lingers ENDED_LINGER_MS — the rule Standard playlists
 * follow (PlaylistLifetimes).
 */
export class LowLatencyPackagers {
  private readonly streams = new Map<string, StreamEntry>();
  /** What every stream's rewind window takes on this node's disk, and may take (DVR_MAX_BYTES). */
  readonly disk: DiskBudget;
  private readonly dvrDir: string;
  /**
   * Rewind windows a previous run left on disk, by folder (`<stream>/<variant>`): counted in the budget until their
   * stream comes back (its packager lists them again) or they are older than the longest window (they go).
   */
  private readonly leftovers = new Map<string, { bytes: number; expiry: NodeJS.Timeout }>();
  /**
   * Told when a stream with a rewind window ended (its reconnect grace is over), with the window's store: its VOD
   * is kept from it (vod/). The ladder's first variant (the best), or the stream without a ladder.
   */
  onSessionEnd: ((streamId: string, store: DvrStore, storyboard: WindowStoryboard | null) => void) | null = null;
  /** ffmpeg, which makes the rewind windows' storyboards (none without it). */
  private readonly ffmpeg: string | null;
  /**
   * Variants an edge's pull packages in its own ffmpeg (pipelines/edge/rendition-packaging.ts), by `<stream>/<key>`:
   * the packager it feeds, null before its first bytes. The stream's LL-HLS pipeline leaves those to it.
   */
  private readonly pulled = new Map<string, LowLatencyPackager | null>();

  /** Whether H.264/AAC variants are remuxed in the node's process (ll-hls/input/choose.ts); else all by ffmpeg. */
  readonly remux: boolean;

  constructor(events: StreamEvents, o: { dataDir: string; dvrMaxBytes: number; ffmpeg?: string; remux?: boolean }) {
    this.ffmpeg = o.ffmpeg ?? null;
    this.remux = o.remux ?? true;
    this.disk = new DiskBudget(o.dvrMaxBytes);
    if (!o.dataDir) throw new Error('the LL-HLS packagers need the node data directory');
    this.dvrDir = join(o.dataDir, 'dvr');
    this.keepLeftovers();
    events.subscribe({ gone: (streamId) => this.end(streamId) });
  }

  /** Keeps `windowSeconds` of the stream on disk for its outputs' rewind (0: the live window only). */
  setDvr(streamId: string, windowSeconds: number): void {
    const stream = this.streams.get(streamId);
    if (!stream) return;
    stream.dvrWindowSeconds = windowSeconds;
    for (const [key, entry] of stream.variants) this.applyDvr(streamId, key, entry, windowSeconds);
  }

  /**
   * The packager a new push (or a new packaging ffmpeg of it) writes to, for the variant `key` (null: the stream
   * without a ladder): the stream's, continued in a new period, or a new one. Variants not in `keys` go.
   */
  begin(streamId: string, key: string | null, keys: readonly (string | null)[] = [key]): LowLatencyPackager {
    let stream = this.streams.get(streamId);
    if (stream?.linger) {
      this.forget(streamId);
      stream = undefined;
    }
    if (!stream) {
      stream = { variants: new Map(), dvrWindowSeconds: 0, linger: null, retired: new Map() };
      this.streams.set(streamId, stream);
    }
    for (const [variant, entry] of stream.variants) if (!keys.includes(variant)) retire(stream, variant, entry);
    const entry = stream.variants.get(key);
    if (entry) {
      entry.packager.startPeriod();
      return entry.packager;
    }
    const packager = new LowLatencyPackager({
      partTarget: PART_SECONDS,
      segmentMin: SEGMENT_MIN_SECONDS,
      keepSegments: KEEP_SEGMENTS,
      maxBytes: MAX_BYTES,
      continueFrom: stream.retired.get(key),
    });
    stream.retired.delete(key);
    const made: Entry = { packager, store: null, storyboard: null };
    stream.variants.set(key, made);
    this.applyDvr(streamId, key, made, stream.dvrWindowSeconds);
    return packager;
  }

  /**
   * Nothing feeds the variant's `packager` any more (an edge let go of its rendition's pull): it leaves the stream's
   * playlists and rendition reports; packaged again, it goes on from where it stopped. A newer packager stays.
   */
  retire(streamId: string, key: string | null, packager: LowLatencyPackager): void {
    const stream = this.streams.get(streamId);
    const entry = stream?.variants.get(key);
    if (stream && entry?.packager === packager) retire(stream, key, entry);
  }

  /** An edge's pull packages the variant, feeding `packager` (null: from its first bytes); undefined: it stopped. */
  feedByPull(streamId: string, key: string | null, packager: LowLatencyPackager | null | undefined): void {
    if (packager === undefined) this.pulled.delete(`${streamId}/${key}`);
    else this.pulled.set(`${streamId}/${key}`, packager);
  }

  /**
   * Whether an edge's pull packages the variant into the packager its outputs serve (not one since forgotten: an
   * output made Standard and Low again while pulled): then nothing else need package it.
   */
  fedByPull(streamId: string, key: string | null): boolean {
    const fed = this.pulled.get(`${streamId}/${key}`);
    return fed === null || (fed !== undefined && fed === this.of(streamId, key));
  }

  /** The packager of a variant (null: the stream without a ladder) Low latency outputs serve now, or null. */
  of(streamId: string, key: string | null = null): LowLatencyPackager | null {
    return this.streams.get(streamId)?.variants.get(key)?.packager ?? null;
  }

  /** The storyboard of the stream's rewind window, and the packager of the variant it is made from; null: none. */
  storyboardOf(streamId: string): { storyboard: WindowStoryboard; packager: LowLatencyPackager } | null {
    for (const { storyboard, packager } of this.streams.get(streamId)?.variants.values() ?? [])
      if (storyboard) return { storyboard, packager };
    return null;
  }

  /** A ladder's variants, in the ladder's order; empty without a ladder (one packager, key null). */
  variants(streamId: string): { key: string; packager: LowLatencyPackager }[] {
    const variants = this.streams.get(streamId)?.variants ?? new Map<string | null, Entry>();
    return [...variants].flatMap(([key, entry]) => (key === null ? [] : [{ key, packager: entry.packager }]));
  }

  /** No output of the stream is Low latency any more, or the node stops: its packagers go at once. */
  forget(streamId: string): void {
    const stream = this.streams.get(streamId);
    if (!stream) return;
    if (stream.linger) clearTimeout(stream.linger);
    this.streams.delete(streamId);
    for (const entry of stream.variants.values()) void entry.store?.clear();
  }

  /** The node stops: the packagers go, their rewind windows stay on disk for the node's next run. */
  release(streamId: string): void {
    const stream = this.streams.get(streamId);
    if (!stream) return;
    if (stream.linger) clearTimeout(stream.linger);
    this.streams.delete(streamId);
    for (const entry of stream.variants.values()) entry.store?.release();
  }

  /** What the packagers hold in memory, for the node's health and metrics. */
  memoryBytes(): number {
    let bytes = 0;
    for (const stream of this.streams.values())
      for (const { packager } of stream.variants.values()) bytes += packager.memoryBytes();
    return bytes;
  }

  /** The node stops: what is on disk stays for its next run. */
  close(): void {
    for (const streamId of [...this.streams.keys()]) this.release(streamId);
    for (const { expiry } of this.leftovers.values()) clearTimeout(expiry);
    this.leftovers.clear();
  }

  private applyDvr(streamId: string, key: string | null, entry: Entry, windowSeconds: number): void {
    if (windowSeconds > 0 && !entry.store) {
      const store = new DvrStore(join(this.dvrDir, streamId, key ?? 'main'), this.disk);
      entry.storyboard = this.storyboardFor(streamId, store);
      const leftover = this.takeLeftover(store.dir);
      // A window the node left before it restarted is listed again by a packager that has nothing yet; a packager
      // already writing (a window asked for mid-push) numbers its own segments from 0, so the old ones go.
      if (leftover && entry.packager.isEmpty()) {
        const restored = store.restore(windowSeconds, Date.now());
        if (restored) entry.packager.restore(restored);
      } else if (leftover) rmSync(store.dir, { recursive: true, force: true });
      entry.store = store;
    }
    entry.packager.setDvr(entry.store && windowSeconds > 0 ? { store: entry.store, windowSeconds } : null);
  }

  /** A storyboard of the window in `store`, unless the stream has one (one ffmpeg at most per stream) or no ffmpeg. */
  private storyboardFor(streamId: string, store: DvrStore): WindowStoryboard | null {
    if (!this.ffmpeg || this.storyboardOf(streamId)) return null;
    const storyboard = new WindowStoryboard(
      {
        dir: store.dir,
        read: (msn) => store.read(msn),
        init: (period) => readFile(store.initPath(period)).catch(() => null),
      },
      this.ffmpeg,
    );
    store.observer = storyboard;
    return storyboard;
  }

  /** Counts the windows a previous run left (`<dvr>/<stream>/<variant>/`) and removes those past the longest window. */
  private keepLeftovers(): void {
    for (const streamId of namesIn(this.dvrDir))
      for (const variant of namesIn(join(this.dvrDir, streamId))) {
        const dir = join(this.dvrDir, streamId, variant);
        const written = lastWritten(dir);
        const leftMs = written + LEFTOVER_MS - Date.now();
        if (leftMs <= 0) {
          rmSync(dir, { recursive: true, force: true });
          continue;
        }
        const bytes = bytesIn(dir);
        this.disk.used += bytes;
        const expiry = setTimeout(() => {
          if (!this.takeLeftover(dir)) return;
          rmSync(dir, { recursive: true, force: true });
        }, leftMs);
        expiry.unref();
        this.leftovers.set(dir, { bytes, expiry });
      }
  }

  /** The leftover window in `dir`, now no longer counted as one (its store counts what it keeps); false: none. */
  private takeLeftover(dir: string): boolean {
    const leftover = this.leftovers.get(dir);
    if (!leftover) return false;
    clearTimeout(leftover.expiry);
    this.leftovers.delete(dir);
    this.disk.used -= leftover.bytes;
    return true;
  }

  private end(streamId: string): void {
    const stream = this.streams.get(streamId);
    if (!stream || stream.linger) return;
    for (const { packager } of stream.variants.values()) packager.end();
    const [first] = stream.variants.values();
    const source = stream.variants.get(null) ?? first;
    if (source?.store && stream.dvrWindowSeconds > 0) this.onSessionEnd?.(streamId, source.store, source.storyboard);
    stream.linger = setTimeout(() => {
      if (this.streams.get(streamId) === stream) this.forget(streamId);
    }, ENDED_LINGER_MS);
    stream.linger.unref();
  }
}

/** Takes a variant out of its stream, keeping where it stopped for a packager of the same variant later. */
function retire(stream: StreamEntry, key: string | null, entry: Entry): void {
  stream.variants.delete(key);
  stream.retired.set(key, entry.packager.continuation());
  void entry.store?.clear();
}

/** When the window in the folder was last written (its index is appended with every segment); 0: no index. */
const lastWritten = (dir: string): number => statOf(join(dir, INDEX))?.mtimeMs ?? 0;

function bytesIn(dir: string): number {
  let bytes = 0;
  for (const name of namesIn(dir)) if (name.startsWith('seg-')) bytes += statOf(join(dir, name))?.size ?? 0;
  return bytes;
}
