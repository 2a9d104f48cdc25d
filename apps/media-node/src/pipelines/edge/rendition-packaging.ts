import type { GuardedChild } from '../../child.js';
import { fmp4OutputArgs } from '../../ll-hls/files.js';
import type { LowLatencyPackager } from '../../ll-hls/packager.js';
import { type LowLatencyPackagers, PART_SECONDS } from '../../ll-hls/packagers.js';
import type { AssignedStream } from '../../streams/directory.js';
import { dvrWindowSecondsOf, isLowLatencyHls } from '../low-latency-hls.js';

/** Whether an edge packages what it pulls of the stream as LL-HLS: an HLS output of the stream here is Low latency. */
export const wantsLowLatency = (assigned: AssignedStream): boolean => assigned.outputs.some(isLowLatencyHls);

/**
 * The LL-HLS packaging of one rendition an edge pulls from its origin (docs/decisions.md, "LL-HLS on edges for ladders"),
 * or of the stream it pulls whole when it has no ladder (key null). The pull's own ffmpeg writes what it pulls a
 * second time, copied, as fragmented MP4 on its stdout (`args`), and the variant's packager here cuts it into parts:
 * no second ffmpeg and no hop through this node's nginx, so an edge viewer's parts come one copy after the origin's,
 * as the origin's own packaging ffmpeg makes them from its nginx.
 */
export class RenditionPackaging {
  /** The pull ffmpeg's second output: every track again, to its stdout. */
  static readonly args: readonly string[] = ['-map', '0:v?', '-map', '0:a?', ...fmp4OutputArgs(PART_SECONDS)];
  private packager: LowLatencyPackager | null = null;
  private failed = false;
  /** No longer packaging (detach): what the pull's ffmpeg writes on its stdout is dropped. */
  private detached = false;
  /** The rewind window the stream's packagers keep for this node's Low latency outputs, seconds (0: none). */
  private windowSeconds = 0;

  constructor(
    private readonly packagers: LowLatencyPackagers,
    private readonly streamId: string,
    /** The rendition, or null for the stream pulled whole (no ladder). */
    private readonly key: string | null,
    /** The origin's ladder when the pull started ([null] without one): variants not in it leave the stream's packagers. */
    private readonly keys: readonly (string | null)[],
  ) {
    packagers.feedByPull(streamId, key, null);
  }

  /**
   * Feeds the variant's packager from the pull's ffmpeg: a new period of its playlist from the first bytes (a variant
   * pulled again goes on in the same playlist after an EXT-X-DISCONTINUITY). `onFailure` when they are not fMP4.
   */
  attach(ffmpeg: GuardedChild, onFailure: (failure: string) => void): void {
    ffmpeg.stdout.on('data', (chunk: Buffer) => {
      if (this.failed || this.detached) return;
      try {
        if (!this.packager && this.ladderCame()) {
          this.detach();
          return;
        }
        if (!this.packager) {
          this.packager = this.packagers.begin(this.streamId, this.key, this.keys);
          this.packagers.feedByPull(this.streamId, this.key, this.packager);
          this.packagers.setDvr(this.streamId, this.windowSeconds);
        }
        this.packager.write(chunk);
      } catch (error) {
        this.failed = true;
        onFailure(String(error));
      }
    });
  }

  /**
   * The stream pulled whole was to be packaged as a stream without a ladder, and the origin's ladder came since: its
   * variants' pulls package them here, and beginning the key-null variant would retire theirs (`begin`'s keys). Its
   * ffmpeg's fMP4 is read and dropped from now on; the pull goes on for its other viewers.
   */
  detach(): void {
    if (this.detached) return;
    this.detached = true;
    this.stop({ keep: false });
  }

  /** Whether this is the stream pulled whole while a ladder's variants are packaged here. */
  private ladderCame(): boolean {
    return this.key === null && this.packagers.variants(this.streamId).length > 0;
  }

  /**
   * The stream as this node reads it now: its Low latency outputs' rewind window is kept by the variants' packagers
   * here (an edge's live rewind: the stream pulled whole is not packaged while it has a ladder, so no LL-HLS
   * pipeline sets it).
   */
  follow(assigned: AssignedStream): void {
    const windowSeconds = dvrWindowSecondsOf(assigned);
    if (windowSeconds === this.windowSeconds) return;
    this.windowSeconds = windowSeconds;
    if (this.packager) this.packagers.setDvr(this.streamId, windowSeconds);
  }

  /**
   * The pull stopped. One the origin ended keeps its playlist through the origin's reconnect grace (the stream's end
   * here, `gone`, ends it, as the origin's), and so does the node stopping (its rewind windows stay on disk for its
   * next run); one this node let go of (no viewer of the variant left, the outputs gone) takes its variant out of the
   * stream's playlists and rendition reports: nothing feeds it any more.
   */
  stop(o: { keep: boolean }): void {
    this.packagers.feedByPull(this.streamId, this.key, undefined);
    if (!o.keep && this.packager) this.packagers.retire(this.streamId, this.key, this.packager);
  }
}
