import { Fmp4Splitter } from '../fmp4-splitter.js';
import type { DvrStore, RestoredWindow } from './dvr-store.js';
import { type InitTrack, readFragment, readInitTracks } from './fmp4-boxes.js';
import { type PlaylistSegment, type RenditionReport, renderPlaylist } from './playlist.js';
import type { ClipSource, Continuation, Part, Segment } from './segments.js';
import { Waiters } from './waiters.js';

export interface PackagerOptions {
  /** The part target (PART-TARGET), seconds. */
  partTarget: number;
  /** A new segment starts at the first keyframe once the current one is at least this long, seconds. */
  segmentMin: number;
  /** Complete segments kept (older ones leave the playlist). */
  keepSegments: number;
  /** The bytes kept at most (the oldest segments go first; the one being written stays). */
  maxBytes: number;
  /** The wall clock (EXT-X-PROGRAM-DATE-TIME), ms. */
  now?: () => number;
  /** Where an earlier packager of the same variant stopped (`continuation()`): its numbering goes on. */
  continueFrom?: Continuation;
}

/**
 * One stream's LL-HLS (docs/decisions.md, "HLS on the node"): takes ffmpeg's fragmented MP4 as it comes, keeps
 * the init segment of each period and the last segments' parts in memory (bounded), and answers the media
 * playlist, parts, segments and blocking requests. A period is one run of ffmpeg (a push, or a new source of it):
 * its first segment carries a discontinuity and its own init segment; media sequence numbers go on.
 */
export class LowLatencyPackager {
  private readonly segments: Segment[] = [];
  private readonly inits = new Map<number, { data: Buffer; tracks: Map<number, InitTrack> }>();
  /**
   * Per period, the wall-clock time (ms) of media time 0: a segment's program date is its first decode time after
   * it, so the dates follow the media's own clock rather than when bytes happened to arrive.
   */
  private readonly anchors = new Map<number, number>();
  private readonly waiters = new Waiters();
  private splitter: Fmp4Splitter;
  private period = 0;
  private nextMsn = 0;
  /** The periods whose first keyframe was left out (held over the audio before it: see addFragment). */
  private readonly heldStarts = new Set<number>();
  /** Discontinuities of segments that left the playlist (EXT-X-DISCONTINUITY-SEQUENCE). */
  private discontinuitiesDropped = 0;
  private ended = false;
  private readonly now: () => number;
  /** The rewind window: its store and length (seconds); none: the live window in memory only. */
  private dvr: { store: DvrStore; windowSeconds: number } | null = null;

  constructor(private readonly o: PackagerOptions) {
    this.now = o.now ?? Date.now;
    if (o.continueFrom) {
      this.nextMsn = o.continueFrom.msn;
      this.period = o.continueFrom.period;
      this.discontinuitiesDropped = o.continueFrom.discontinuities;
    }
    this.splitter = this.newSplitter();
  }

  /**
   * Where this packager's numbering stops, for a successor serving the same URL (a ladder's variant that left and
   * came back: the transcoder restarting, or a push resumed before its renditions): a player following the
   * variant asks for the next media sequence numbers, and a playlist starting again at 0 would refuse them.
   */
  continuation(): Continuation {
    return {
      msn: this.currentMsn() + (this.segments.at(-1)?.complete === false ? 1 : 0),
      period: this.period + 1,
      discontinuities: this.discontinuitiesBefore(this.segments.length - 1),
    };
  }

  /** ffmpeg's stdout, in chunks of any size; throws on bytes that are not fragmented MP4. */
  write(chunk: Buffer): void {
    if (!this.ended) this.splitter.push(chunk);
  }

  /** A new run of ffmpeg: its init segment and fragments start a new period of the playlist. */
  startPeriod(): void {
    if (this.inits.has(this.period) || this.segments.some((segment) => segment.period === this.period)) this.period++;
    this.closeOpenSegment();
    this.splitter = this.newSplitter();
    this.ended = false;
  }

  /** The push is over: the playlist ends (EXT-X-ENDLIST) and every waiting request is answered. */
  end(): void {
    this.closeOpenSegment();
    this.ended = true;
    this.waiters.settle('ended');
  }

  /**
   * Keeps `windowSeconds` of the stream on disk (the largest rewind window of its outputs), or nothing more than
   * the live window (null). Segments already kept in memory are stored when they complete from now on.
   */
  setDvr(dvr: { store: DvrStore; windowSeconds: number } | null): void {
    this.dvr = dvr && dvr.windowSeconds > 0 ? dvr : null;
    if (!this.dvr) {
      // Back to the live window: what was only on disk leaves the playlist.
      const live = this.segments.filter((segment) => segment.parts.length > 0 || !segment.complete);
      this.dropFront(this.segments.length - live.length);
    }
    this.trim();
  }

  /**
   * Lists again the rewind window a previous run of the node left on disk (DvrStore.restore), before this run's
   * first bytes: its segments stay on disk, and this run goes on after them in a new period (a discontinuity).
   */
  restore(window: RestoredWindow): void {
    if (this.segments.length > 0 || window.segments.length === 0) return;
    for (const [period, data] of window.inits) {
      const tracks = new Map(readInitTracks(data).map((track) => [track.id, track]));
      this.inits.set(period, { data, tracks });
    }
    for (const stored of window.segments) this.segments.push({ ...stored, parts: [], complete: true, stored: true });
    const last = window.segments.at(-1);
    this.nextMsn = (last?.msn ?? -1) + 1;
    this.period = Math.max(...window.inits.keys()) + 1;
    this.splitter = this.newSplitter();
  }

  /** Whether it has listed nothing yet (no segment). */
  isEmpty(): boolean {
    return this.segments.length === 0;
  }

  init(period = this.period): Buffer | null {
    return this.inits.get(period)?.data ?? null;
  }

  part(msn: number, index: number): Buffer | null {
    return this.find(msn)?.parts[index]?.data ?? null;
  }

  /** Whether segment `msn` is in a playlist of this window (seconds; 0: the live window): a viewer may read it. */
  lists(msn: number, windowSeconds: number): boolean {
    const first = this.segments[this.firstListed(windowSeconds)];
    return first !== undefined && msn >= first.msn;
  }

  /** A complete segment: from memory, or from the rewind window's disk. */
  async segment(msn: number): Promise<Buffer | null> {
    const found = this.find(msn);
    if (!found?.complete) return null;
    if (found.parts.length > 0) return Buffer.concat(found.parts.map((part) => part.data));
    return (await this.dvr?.store.read(msn)) ?? null;
  }

  /**
   * What a clip of program dates [fromMs, toMs] is cut from (issue 35): the segments from the last one starting at
   * or before `fromMs` (segments start on keyframes) to the last one starting before `toMs`, the open segment's parts
   * so far included, each period's run as one fragmented MP4 (its init, then its segments' bytes). 'before' when
   * `fromMs` is older than what is held (the window moved on), 'after' while `toMs` is past what has arrived.
   */
  async clip(fromMs: number, toMs: number): Promise<ClipSource | 'before' | 'after'> {
    let first = this.segments.length - 1;
    while (first >= 0 && (this.segments[first]?.programDate ?? 0) > fromMs) first--;
    if (first < 0) return 'before';
    const last = this.segments.at(-1);
    if (!last || last.programDate + last.duration * 1000 < toMs) return 'after';
    const runs: ClipSource['runs'] = [];
    let seconds = 0;
    for (const segment of this.segments.slice(first)) {
      if (segment.programDate >= toMs) break;
      // Media time, not wall time: a gap between periods (no push) is no part of the clip.
      seconds += Math.min(segment.duration, (toMs - segment.programDate) / 1000);
      const data = segment.complete
        ? await this.segment(segment.msn)
        : Buffer.concat(segment.parts.map((part) => part.data));
      const init = this.inits.get(segment.period)?.data;
      if (!data || !init) return 'before';
      const run = runs.at(-1);
      if (run?.period === segment.period) run.chunks.push(data);
      else runs.push({ period: segment.period, chunks: [init, data] });
    }
    return { startMs: this.segments[first]?.programDate ?? fromMs, seconds, runs };
  }

  /** The last part written: its segment's media sequence number and its index there. */
  lastPart(): { msn: number; part: number } | null {
    const last = this.segments.at(-1);
    return last && last.parts.length > 0 ? { msn: last.msn, part: last.parts.length - 1 } : null;
  }

  /** The RFC 6381 codecs of the current period's tracks (a master playlist's CODECS), or null before its init. */
  codecs(): string | null {
    const tracks = [...(this.inits.get(this.period)?.tracks.values() ?? [])];
    const codecs = tracks.flatMap((track) => (track.codec ? [track.codec] : []));
    return codecs.length > 0 ? codecs.join(',') : null;
  }

  resolution(): { width: number; height: number } | null {
    const video = [...(this.inits.get(this.period)?.tracks.values() ?? [])].find((track) => track.kind === 'video');
    return video?.width && video.height ? { width: video.width, height: video.height } : null;
  }

  memoryBytes(): number {
    let bytes = 0;
    for (const segment of this.segments.slice(this.firstInMemory()))
      for (const part of segment.parts) bytes += part.data.length;
    for (const init of this.inits.values()) bytes += init.data.length;
    return bytes;
  }

  /**
   * What the playlist of `windowSeconds` is made of, as a key: it changes with every part, segment, trim and end, so
   * a playlist rendered for one viewer serves every other until it changes (ll-hls/serve.ts).
   */
  playlistState(windowSeconds: number): string {
    const from = this.firstListed(windowSeconds);
    const last = this.segments.at(-1);
    return [
      from,
      this.segments[from]?.msn,
      this.segments.length,
      last?.msn,
      last?.parts.length,
      last?.complete,
      this.ended,
      this.discontinuitiesDropped,
    ].join(':');
  }

  /**
   * The media playlist: the live window, or the last `windowSeconds` of the rewind window (an output's own);
   * `skip`: a delta update (EXT-X-SKIP); `uri` decorates each URI (a session's query).
   */
  playlist(
    options: {
      skip?: boolean;
      uri?: (file: string) => string;
      windowSeconds?: number;
      renditionReports?: RenditionReport[];
    } = {},
  ): string {
    const from = this.firstListed(options.windowSeconds ?? 0);
    const listed = this.segments.slice(from);
    const segments: PlaylistSegment[] = listed.map((segment) => ({
      msn: segment.msn,
      period: segment.period,
      discontinuity: segment.periodStart,
      programDate: segment.programDate,
      duration: segment.duration,
      complete: segment.complete,
      parts: segment.parts.map(({ duration, independent }) => ({ duration, independent })),
    }));
    return renderPlaylist({
      segments,
      partTarget: this.partTarget(),
      discontinuitySequence: this.discontinuitiesBefore(from),
      ended: this.ended,
      skip: options.skip ?? false,
      uri: options.uri ?? ((file) => file),
      renditionReports: options.renditionReports ?? [],
    });
  }

  /**
   * Holds a playlist request (`_HLS_msn`, `_HLS_part`) until the playlist has segment `msn` (complete, or with
   * part `part`) or a later one. 'too-far' at once for more than two segments ahead; 'ended' when the push ended.
   */
  waitFor(
    msn: number,
    part: number | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<'ready' | 'timeout' | 'ended' | 'too-far'> {
    if (this.has(msn, part)) return Promise.resolve('ready');
    if (this.ended) return Promise.resolve('ended');
    if (msn > this.currentMsn() + 2) return Promise.resolve('too-far');
    return this.waiters.wait(() => this.has(msn, part), timeoutMs, signal);
  }

  /** Holds a request for a part a preload hint named until it exists (or its segment closed without it). */
  waitForPart(
    msn: number,
    index: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<'ready' | 'timeout' | 'ended'> {
    const settled = () => this.part(msn, index) !== null || this.find(msn)?.complete === true || msn < this.firstMsn();
    if (settled()) return Promise.resolve('ready');
    if (this.ended) return Promise.resolve('ended');
    if (msn > this.currentMsn() + 1) return Promise.resolve('timeout');
    return this.waiters.wait(settled, timeoutMs, signal).then((result) => (result === 'too-far' ? 'timeout' : result));
  }

  private newSplitter(): Fmp4Splitter {
    const period = this.period;
    return new Fmp4Splitter((object) => {
      if (object.kind === 'header') {
        const tracks = new Map(readInitTracks(object.data).map((track) => [track.id, track]));
        this.inits.set(period, { data: object.data, tracks });
      } else {
        this.addFragment(period, object.data);
      }
    });
  }

  private addFragment(period: number, data: Buffer): void {
    const init = this.inits.get(period);
    if (!init) return;
    const moof = data.subarray(data.indexOf('moof', 0, 'latin1') - 4);
    const runs = readFragment(moof.subarray(8), init.tracks);
    const main =
      runs.find((run) => init.tracks.get(run.trackId)?.kind === 'video') ??
      runs.find((run) => init.tracks.get(run.trackId)?.kind === 'audio');
    const track = main && init.tracks.get(main.trackId);
    if (!main || !track || track.timescale <= 0) return;
    const hasVideo = [...init.tracks.values()].some((each) => each.kind === 'video');
    const part: Part = {
      data,
      duration: main.duration / track.timescale,
      independent: hasVideo ? track.kind === 'video' && main.startsWithSync : true,
    };
    let open = this.segments.at(-1);
    if (open && (open.complete || open.period !== period)) open = undefined;
    // (Within a millisecond: three 0.3 s parts and a 0.1 s one add up to 0.9999999 in floating point.)
    if (open && part.independent && open.duration >= this.o.segmentMin - 0.001) {
      this.complete(open);
      open = undefined;
    }
    if (!open) {
      // A segment starts on a keyframe: what comes before the first one of a period cannot be decoded alone.
      if (!part.independent) return;
      const periodStart = !this.segments.some((segment) => segment.period === period);
      // nginx sends a new player audio before the video's first keyframe (`wait_video off`): ffmpeg's MP4 muxer
      // starts both tracks at once by holding that keyframe over the gap, a part up to a GOP long (PART-TARGET
      // and the hold-back would follow it). The period starts at its next keyframe instead (once: a stream whose
      // frames are all longer than the target keeps its parts as they are).
      if (periodStart && hasVideo && part.duration > this.o.partTarget + 0.001 && !this.heldStarts.has(period)) {
        this.heldStarts.add(period);
        return;
      }
      open = {
        msn: this.nextMsn++,
        period,
        periodStart,
        programDate: this.programDate(period, main.baseDecodeTime / track.timescale),
        parts: [],
        duration: 0,
        complete: false,
        bytes: 0,
        stored: false,
      };
      this.segments.push(open);
    }
    open.parts.push(part);
    open.duration += part.duration;
    open.bytes += data.length;
    this.trim();
    this.waiters.check();
  }

  private programDate(period: number, mediaSeconds: number): number {
    let anchor = this.anchors.get(period);
    if (anchor === undefined) {
      anchor = this.now() - mediaSeconds * 1000;
      this.anchors.set(period, anchor);
    }
    return Math.round(anchor + mediaSeconds * 1000);
  }

  private complete(segment: Segment): void {
    segment.complete = true;
    const dvr = this.dvr;
    const init = this.inits.get(segment.period)?.data;
    if (!dvr || !init) return;
    const { msn, period, periodStart, programDate, duration } = segment;
    const data = Buffer.concat(segment.parts.map((part) => part.data));
    void dvr.store.store({ msn, period, periodStart, programDate, duration }, data, init).then((stored) => {
      segment.stored = stored;
      this.trim();
    });
  }

  /** The index of the first segment a playlist lists: within the rewind window, else the segments in memory. */
  private firstListed(windowSeconds: number): number {
    if (windowSeconds <= 0 || !this.dvr) return this.firstInMemory();
    let seconds = 0;
    let index = this.segments.length;
    while (index > 0 && seconds + (this.segments[index - 1]?.duration ?? 0) <= windowSeconds) {
      index--;
      seconds += this.segments[index]?.duration ?? 0;
    }
    return Math.min(index, this.segments.length - 1);
  }

  /**
   * EXT-X-DISCONTINUITY-SEQUENCE of a playlist whose first segment is `from`: the discontinuities no longer written
   * (those of segments before it, and its own), the very first segment's excepted (it has none).
   */
  private discontinuitiesBefore(from: number): number {
    let count = this.discontinuitiesDropped;
    for (const segment of this.segments.slice(0, from + 1)) if (segment.periodStart && segment.msn !== 0) count++;
    return count;
  }

  /** The oldest `count` segments leave (and the disk). */
  private dropFront(count: number): void {
    for (const segment of this.segments.splice(0, Math.max(0, count))) {
      if (segment.periodStart && segment.msn !== 0) this.discontinuitiesDropped++;
      this.dvr?.store.remove(segment.msn);
    }
  }

  private closeOpenSegment(): void {
    const open = this.segments.at(-1);
    if (!open || open.complete) return;
    if (open.parts.length > 0) this.complete(open);
    else this.segments.pop();
    this.waiters.check();
  }

  /**
   * The live window stays in memory (the last segments, bounded in count and bytes); older segments leave memory,
   * kept on the rewind window's disk while they are in it (and the node's disk budget allows), else they go. An
   * init no segment uses any more goes too.
   */
  private trim(): void {
    while (this.overMemory()) {
      const oldest = this.segments.find((segment) => segment.complete && segment.parts.length > 0);
      if (!oldest) break;
      if (!this.dvr) {
        if (oldest !== this.segments[0]) break;
        this.dropFront(1);
        continue;
      }
      // Not on disk yet (being written): it stays in memory a little longer.
      if (!oldest.stored) break;
      oldest.parts = [];
    }
    if (this.dvr) {
      const { store } = this.dvr;
      let drop = this.firstListed(this.dvr.windowSeconds);
      // Over the node's disk budget, this stream's oldest segments on disk go first.
      let excess = store.overBudgetBy();
      for (let next = this.segments[drop]; excess > 0 && next && next.parts.length === 0; next = this.segments[++drop])
        excess -= store.sizeOf(next.msn);
      this.dropFront(drop);
    }
    for (const period of this.inits.keys())
      if (period !== this.period && !this.segments.some((segment) => segment.period === period)) {
        this.inits.delete(period);
        this.anchors.delete(period);
      }
  }

  /**
   * The index of the first segment whose parts are in memory. Those on disk only are always the oldest (they leave
   * memory oldest first), so the search runs from the end over the live window only — not over a 4-hour window
   * on every part that arrives.
   */
  private firstInMemory(): number {
    let index = this.segments.length;
    while (index > 0) {
      const before = this.segments[index - 1];
      if (!before || (before.complete && before.parts.length === 0)) break;
      index--;
    }
    return index;
  }

  private overMemory(): boolean {
    const open = this.segments.at(-1)?.complete === false ? 1 : 0;
    const inMemory = this.segments.length - this.firstInMemory() - open;
    return inMemory > this.o.keepSegments || this.memoryBytes() > this.o.maxBytes;
  }

  private partTarget(): number {
    let longest = this.o.partTarget;
    for (const segment of this.segments) for (const part of segment.parts) longest = Math.max(longest, part.duration);
    return longest;
  }

  private find(msn: number): Segment | undefined {
    const first = this.segments[0];
    return first ? this.segments[msn - first.msn] : undefined;
  }

  private firstMsn(): number {
    return this.segments[0]?.msn ?? this.nextMsn;
  }

  /** The segment being written (or the next one to come). */
  private currentMsn(): number {
    const last = this.segments.at(-1);
    return last ? (last.complete ? last.msn + 1 : last.msn) : this.nextMsn;
  }

  private has(msn: number, part: number | undefined): boolean {
    const last = this.segments.at(-1);
    if (!last) return false;
    if (last.msn > msn) return true;
    if (last.msn < msn) return false;
    return part === undefined ? last.complete : last.complete || last.parts.length > part;
  }
}
