import { mkdtemp, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CLIP_MAX_SECONDS, type NodeClip } from '@streamcloud/contract';
import type { S3ClientOptions } from '@streamcloud/s3';
import { UploadFailure, uploadFile } from '@streamcloud/s3/upload';
import type { ControlPlaneClient, ReportBody } from '../control-plane.js';
import type { LowLatencyPackager } from '../ll-hls/packager.js';
import type { Logger } from '../log.js';
import { probeDuration } from '../pipelines/recorder/file-capture.js';
import { makeClipStoryboard } from '../storyboard/clip.js';
import { cutFromFile, cutFromWindow } from './cut.js';
import { serveObject } from './object-server.js';

/** Clips cut at once on a node; the others wait for the next read (the control plane lists them oldest first). */
const MAX_CONCURRENT = 2;
/** How often the node reads its clips besides the control plane's refresh `Clips` (a refresh that did not arrive). */
const READ_INTERVAL_MS = 5_000;
/** A clip ending a moment ago waits this long at most for its last frames to reach the packager. */
const ARRIVAL_WAIT_MS = 8_000;
const ARRIVAL_POLL_MS = 200;

export interface NodeClipsDeps {
  client: Pick<ControlPlaneClient, 'clips'>;
  send(report: ReportBody): void;
  /** The packager of a stream here (its rewind window and live segments), or null. */
  packagerOf(streamId: string): LowLatencyPackager | null;
  ffmpeg: string;
  ffprobe: string;
  /** Every connection to a storage goes through these (the operator's address policy). */
  agents: NonNullable<S3ClientOptions['agents']>;
  /** Where clips are cut (a folder per clip, removed once it is uploaded). */
  dir: string;
  /** Who uploads, for messages ('node eu-1'). */
  from(): string;
  log: Logger;
}

/** Why a clip cannot be cut: reported as its Error. */
class ClipRefused extends Error {}

/**
 * Cuts the clips the control plane asks of this node (docs/decisions.md, "Clips (issue 35)"): read from
 * `GET /node/clips` when told (refresh `Clips`) and every few seconds; each is cut without re-encoding from
 * the stream's segments (or a recording's object), uploaded to its storage and reported Ready, or Error
 * with the reason. At most MAX_CONCURRENT at once; a clip is cut once per run of the node.
 */
export class NodeClips {
  private readonly running = new Map<string, AbortController>();
  /** Clips this run finished whose final report may not have reached the control plane yet (not cut again). */
  private finished = new Set<string>();
  private reading: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: NodeClipsDeps) {}

  start(): void {
    this.timer = setInterval(() => void this.read(), READ_INTERVAL_MS);
    this.timer.unref();
    void this.read();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    for (const controller of this.running.values()) controller.abort();
  }

  /** Reads the clips waiting for this node and starts those not running (one read at a time). */
  read(): Promise<void> {
    this.reading ??= this.readOnce().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  describe() {
    return { cutting: [...this.running.keys()] };
  }

  private async readOnce(): Promise<void> {
    let clips: NodeClip[];
    try {
      clips = await this.deps.client.clips();
    } catch (error) {
      this.deps.log.error(`reading the clips failed: ${String(error)}`);
      return;
    }
    const listed = new Set(clips.map((clip) => clip.id));
    // What the control plane no longer lists has its final report: forgotten, so the set stays bounded.
    this.finished = new Set([...this.finished].filter((id) => listed.has(id)));
    for (const clip of clips) {
      if (this.running.size >= MAX_CONCURRENT) break;
      if (this.running.has(clip.id) || this.finished.has(clip.id)) continue;
      const controller = new AbortController();
      this.running.set(clip.id, controller);
      void this.cut(clip, controller.signal).finally(() => {
        this.running.delete(clip.id);
        this.finished.add(clip.id);
        // The next waiting clip starts now rather than at the next read.
        void this.read();
      });
    }
  }

  private async cut(clip: NodeClip, signal: AbortSignal): Promise<void> {
    const report = (fields: Omit<Extract<ReportBody, { kind: 'clip-state' }>, 'kind' | 'clipId'>) =>
      this.deps.send({ kind: 'clip-state', clipId: clip.id, at: new Date().toISOString(), ...fields });
    if (clip.state === 'Pending') report({ state: 'Processing' });
    const dir = await mkdtemp(join(this.deps.dir, 'clip-'));
    try {
      if (!clip.storage) throw new ClipRefused("The storage's credentials cannot be read: the clip cannot be stored");
      const file = await this.cutFile(clip, dir);
      const duration = (await probeDuration(this.deps.ffprobe, file)) ?? undefined;
      const { size } = await uploadFile({
        target: clip.storage,
        agents: this.deps.agents,
        key: clip.objectKey,
        file,
        contentType: 'video/mp4',
        from: this.deps.from(),
        onProgress: () => undefined,
        signal,
      });
      await this.storeStoryboard(clip, file, duration ?? 0, dir, signal);
      report({ state: 'Ready', size, objectKey: clip.objectKey, ...(duration !== undefined ? { duration } : {}) });
      this.deps.log.info(`clip ${clip.id}: ${duration?.toFixed(2) ?? '?'} s, ${size} bytes to "${clip.objectKey}"`);
    } catch (error) {
      if (signal.aborted) return;
      const message =
        error instanceof ClipRefused || error instanceof UploadFailure
          ? error.message
          : `The clip could not be cut: ${error instanceof Error ? error.message : String(error)}`;
      report({ state: 'Error', message: message.slice(0, 1000) });
      this.deps.log.error(`clip ${clip.id}: ${message}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * The clip's storyboard, beside it in its storage (`<path>/clips/<id>/storyboard.vtt` and its sheets): made from the
   * clip's file (storyboard/clip.ts) and uploaded as the clip is. A clip without one is still a clip: a failure is
   * logged, the player shows no thumbnails.
   */
  private async storeStoryboard(clip: NodeClip, file: string, duration: number, dir: string, signal: AbortSignal) {
    const { storage } = clip;
    if (!storage) return;
    try {
      const base = clip.objectKey.replace(/\.mp4$/, '');
      for (const path of await makeClipStoryboard(this.deps.ffmpeg, file, duration, dir)) {
        const name = basename(path);
        await uploadFile({
          target: storage,
          agents: this.deps.agents,
          key: `${base}/${name}`,
          file: path,
          contentType: name.endsWith('.vtt') ? 'text/vtt' : 'image/jpeg',
          from: this.deps.from(),
          onProgress: () => undefined,
          signal,
        });
      }
    } catch (error) {
      if (!signal.aborted) this.deps.log.error(`clip ${clip.id}: no storyboard: ${String(error)}`);
    }
  }

  private async cutFile(clip: NodeClip, dir: string): Promise<string> {
    const { ffmpeg } = this.deps;
    if (clip.recording) {
      const { recording } = clip;
      if (!recording.storage) throw new ClipRefused("The recording's storage credentials cannot be read");
      const object = await serveObject(recording.storage, recording.objectKey, this.deps.agents);
      try {
        return await cutFromFile(ffmpeg, object.url, recording.from, recording.to, dir);
      } finally {
        await object.close();
      }
    }
    if (!clip.window) throw new ClipRefused('The clip names neither a stream window nor a recording');
    const fromMs = Date.parse(clip.window.from);
    const toMs = Date.parse(clip.window.to);
    const source = await this.windowSource(clip.streamId, fromMs, toMs);
    // From the first segment's keyframe (up to one GOP before `from`) to `to`.
    return cutFromWindow(ffmpeg, source, Math.min(source.seconds, CLIP_MAX_SECONDS + 60), dir);
  }

  /** The segments of the stream's window for the range, waiting a moment for the last ones still arriving. */
  private async windowSource(streamId: string, fromMs: number, toMs: number) {
    for (let waited = 0; ; waited += ARRIVAL_POLL_MS) {
      const packager = this.deps.packagerOf(streamId);
      if (!packager)
        throw new ClipRefused(
          'The stream has no segments on this node: clips are cut from the segments of a Low latency HLS output (with a rewind window for more than the last seconds)',
        );
      const source = await packager.clip(fromMs, toMs);
      if (source === 'before')
        throw new ClipRefused(
          "from is no longer in the stream's rewind window on this node (or the stream was not live then)",
        );
      if (source !== 'after') return source;
      if (waited >= ARRIVAL_WAIT_MS)
        throw new ClipRefused('to is past what the stream has sent: the push ended before it');
      await new Promise((resolve) => setTimeout(resolve, ARRIVAL_POLL_MS));
    }
  }
}
