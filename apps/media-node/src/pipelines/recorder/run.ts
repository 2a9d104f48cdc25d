import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import {
  allowedCodecs,
  describeSelector,
  describeTrack,
  type NodeRecording,
  type RecordingState,
  renderFileName,
  type StatusMessage,
  type UploadTarget,
} from '@streamcloud/contract';
import type { GuardedAgents } from '@streamcloud/net-guard';
import { keyPrefix } from '@streamcloud/s3';
import { UploadFailure, uploadFile } from '@streamcloud/s3/upload';
import type { Logger } from '../../log.js';
import type { LiveStream } from '../../streams/types.js';
import {
  type CaptureOrigin,
  captureCandidates,
  describeSource,
  disallowedTracks,
  selectTracks,
  sourceOrigins,
} from '../capture.js';
import type { NodeTools } from '../pipeline.js';
import { describeFree, waitForRoom } from './disk-room.js';
import { FileCapture, probeDuration, repairFile } from './file-capture.js';
import { FILE_EXTENSIONS, type RecordingJournal, type RunRecord } from './journal.js';

const CONTENT_TYPES = { MP4: 'video/mp4', MKV: 'video/x-matroska' } as const;

export type RunMessage = { level: StatusMessage['level']; text: string };

/** What cut a run while its push went on (RecordingStateReport's `interrupted`). */
export type RecordingCut = 'restart' | 'write';

export interface RunContext {
  tools: NodeTools;
  /** Uploads connect through these (the operator's address policy). */
  agents: GuardedAgents;
  journal: RecordingJournal;
  log: Logger;
  /** 'node eu-1': who records and uploads, for messages. */
  from(): string;
  /** Where the files are written: a file the disk filled is closed once it has room again. */
  dir: string;
  /** The run has something new to report (its state or a message). */
  changed(run: RecordingRun): void;
  backoffMs?: readonly number[];
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * One run of a recording: one file, from the push that starts it (through reconnects within the grace) to
 * the object in the storage. Recording while the file grows, Uploading once it is closed, then Completed
 * with the object's key and size, or Error with why. Every phase is journaled before it is reported.
 */
export class RecordingRun {
  state: RecordingState;
  duration: number;
  length: number;
  uploaded = 0;
  size: number | null = null;
  /** Messages not reported yet. */
  messages: RunMessage[] = [];
  /**
   * What cut this run while its push went on: the node's restart, or a file the node could not write (its disk
   * full); the control plane then continues the recording in a new one. Null: nothing did.
   */
  interrupted: RecordingCut | null = null;
  /** The push the file is being read from (null between pushes). */
  stream: LiveStream | null = null;
  private capture: FileCapture | null = null;
  /** The origins the writer was started with (set once: every push of the run is read the same way). */
  private origins: CaptureOrigin[] | null = null;
  private uploading: Promise<void> | null = null;
  /** Pushes read into the file so far. */
  private pushes = 0;
  private readonly aborter = new AbortController();

  private constructor(
    readonly record: RunRecord,
    private readonly ctx: RunContext,
    /** The recording as last read from the control plane (its storage is where the file goes). */
    public recording: Pick<NodeRecording, 'id' | 'fileFormat' | 'capture' | 'storage' | 'autostart'> | null,
  ) {
    this.state = record.phase === 'capturing' ? 'Recording' : record.phase === 'captured' ? 'Uploading' : 'Completed';
    this.duration = record.duration;
    this.length = record.length;
  }

  get id(): string {
    return this.record.runId;
  }

  get recordingId(): string {
    return this.record.recordingId;
  }

  /** A new file for a recording on a live stream, named from its template now. */
  static async begin(recording: NodeRecording, stream: LiveStream, ctx: RunContext): Promise<RecordingRun> {
    const now = new Date();
    const name = renderFileName(
      recording.fileName,
      { date: now, streamId: recording.streamId, streamName: recording.streamName, uuid: randomUUID },
      { autostart: recording.autostart },
    );
    const record: RunRecord = {
      runId: randomUUID(),
      recordingId: recording.id,
      streamId: recording.streamId,
      format: recording.fileFormat,
      objectKey: `${keyPrefix(recording.storage?.path ?? null)}${name}.${FILE_EXTENSIONS[recording.fileFormat]}`,
      startedAt: now.toISOString(),
      phase: 'capturing',
      duration: 0,
      length: 0,
      size: null,
    };
    await ctx.journal.save(record);
    const run = new RecordingRun(record, ctx, recording);
    run.say('info', `Recording ${describeSource(recording.capture.source)} to "${record.objectKey}"`);
    run.capture = new FileCapture({
      ffmpeg: ctx.tools.ffmpeg,
      ffprobe: ctx.tools.ffprobe,
      rtmpUrl: ctx.tools.rtmpUrl,
      file: ctx.journal.fileOf(record),
      format: record.format,
      log: ctx.log,
      onFailure: (message, what) => void run.captureFailed(message, what),
    });
    run.attach(stream);
    return run;
  }

  /** A run found in the journal after a restart: its file is finished (and repaired) and uploaded again. */
  static recovered(record: RunRecord, ctx: RunContext): RecordingRun {
    return new RecordingRun(record, ctx, null);
  }

  get capturing(): boolean {
    return this.state === 'Recording' && this.capture !== null;
  }

  get done(): boolean {
    return this.state === 'Completed' || this.state === 'Error';
  }

  /** Reads a live push into the file (the first one, or one that resumed within the grace). */
  attach(stream: LiveStream): void {
    const capture = this.capture;
    if (!capture || this.state !== 'Recording' || this.stream === stream) return;
    if (this.pushes++ > 0) this.say('info', 'Push resumed: recording on in the same file');
    this.stream = stream;
    if (this.origins) {
      capture.read(
        stream,
        this.origins.map((origin) =>
          origin.source.rtmpName === stream.source.rtmpName ? stream.source : origin.source,
        ),
      );
      return;
    }
    const source = this.recording?.capture.source ?? 'Incoming';
    // The push itself can be read at once; the tracks to keep are known once it is probed.
    if (source === 'Incoming') capture.read(stream, [stream.source]);
    void sourceOrigins(stream, source, {
      hlsDir: this.ctx.tools.hlsDir,
      ffprobe: this.ctx.tools.ffprobe,
      going: () => this.stream === stream && !stream.ended && this.state === 'Recording',
    }).then((origins) => {
      if (origins && this.state === 'Recording' && !this.origins) this.startWriter(stream, origins);
    });
  }

  /** The push ended: the file waits for the push to resume (or for `finish`). */
  detach(stream: LiveStream): void {
    if (this.stream !== stream) return;
    this.stream = null;
    void this.capture?.pause();
  }

  /** Progress of a file being written. */
  async measure(): Promise<void> {
    if (!this.capture || this.state !== 'Recording') return;
    this.duration = this.capture.duration;
    this.length = await this.capture.length();
  }

  /** Closes the file; the upload follows once the storage is known. */
  async finish(): Promise<void> {
    if (await this.endCapture()) await this.close();
  }

  /** Stops capturing (reader and writer): false when the run was not capturing. */
  private async endCapture(): Promise<boolean> {
    const capture = this.capture;
    if (!capture || this.state !== 'Recording') return false;
    this.capture = null;
    this.stream = null;
    await capture.finish();
    return true;
  }

  /** The file is written: what it holds is journaled and uploaded (a file nothing was written to is dropped). */
  private async close(): Promise<void> {
    if (!this.origins) {
      await this.ctx.journal.dropFile(this.record);
      this.fail('Nothing was recorded: the push ended before its tracks were known');
      return;
    }
    await this.closed(false);
  }

  /** The node stops: the file is closed and left in the journal for the next start. */
  async shelve(): Promise<void> {
    this.aborter.abort();
    const capture = this.capture;
    this.capture = null;
    await capture?.finish();
    await this.uploading?.catch(() => undefined);
  }

  /** The recording as the control plane answers it now: its storage is where the upload goes. */
  know(recording: RecordingRun['recording']): void {
    this.recording = recording;
    if (this.state === 'Uploading' && !this.uploading && recording) this.startUpload();
  }

  /** After a restart: a file left in Recording is repaired and becomes one to upload. */
  async recover(): Promise<void> {
    if (this.record.phase !== 'capturing') return;
    this.interrupted = 'restart';
    const file = this.ctx.journal.fileOf(this.record);
    if (!(await repairFile(this.ctx.tools.ffmpeg, file, this.record.format))) {
      this.fail('The node restarted and the file it was recording cannot be read');
      await this.ctx.journal.dropFile(this.record);
      return;
    }
    this.say('warning', 'The node restarted while recording: the file recorded so far is uploaded');
    await this.closed(true);
  }

  /** Drops what the run holds (the control plane has its final report). */
  async forget(): Promise<void> {
    await this.ctx.journal.forget(this.record);
  }

  /** Keeps a file whose recording no longer waits for it. */
  async orphan(): Promise<string> {
    this.aborter.abort();
    return this.ctx.journal.keepFailed(this.record);
  }

  /** The oldest messages not reported yet, at most `count`. */
  takeMessages(count: number): RunMessage[] {
    return this.messages.splice(0, count);
  }

  private startWriter(stream: LiveStream, origins: CaptureOrigin[]): void {
    const recording = this.recording;
    const capture = this.capture;
    if (!recording || !capture) return;
    const candidates = captureCandidates(origins);
    const { tracks, unmatched } = selectTracks(recording.capture.tracks, candidates);
    const where = describeSource(recording.capture.source);
    for (const position of unmatched) {
      const selector = recording.capture.tracks[position];
      if (selector)
        this.say('warning', `${selector.type} selector '${describeSelector(selector)}' matches no track of ${where}`);
    }
    const refused = disallowedTracks(tracks, allowedCodecs(recording.fileFormat));
    for (const { track } of refused)
      this.say('warning', `${recording.fileFormat} cannot hold ${track.codec}: track #${track.idx} is not recorded`);
    const kept = tracks.filter((candidate) => !refused.includes(candidate));
    if (kept.length === 0) {
      this.say('error', `No track of ${where} matches the capture: nothing is recorded`);
      void this.finish();
      return;
    }
    // The Outgoing source is read from its renditions once they are known; the push was read from the start.
    const read = [...new Set(kept.map((candidate) => candidate.origin))];
    const readOrigins = origins.filter((origin) => read.includes(origin.source));
    this.origins = recording.capture.source === 'Incoming' ? origins : readOrigins;
    if (recording.capture.source !== 'Incoming')
      capture.read(
        stream,
        readOrigins.map((origin) => origin.source),
      );
    capture.write(kept, this.origins);
    this.say('info', `Recording ${kept.map(({ track }) => describeTrack(track)).join(' + ')}`);
  }

  /** The file is complete on disk: it is journaled as such, then uploaded. */
  private async closed(repaired: boolean): Promise<void> {
    const file = this.ctx.journal.fileOf(this.record);
    const duration = await probeDuration(this.ctx.tools.ffprobe, file);
    const length = await this.lengthOf(file);
    // The writer creates the file once its probe of the push is over (up to BOTH_TRACKS_PROBE_US in): one that
    // failed before that (its disk full) wrote nothing, or a header only (no duration to probe, none in its
    // progress) — no object passes for a recording then.
    const written = duration ?? (this.interrupted === 'write' ? this.duration : null);
    if (!length || written === 0) {
      await this.ctx.journal.dropFile(this.record);
      this.fail('Nothing was recorded: the file could not be written');
      return;
    }
    this.duration = duration ?? this.duration;
    this.length = length;
    this.record.phase = 'captured';
    this.record.duration = this.duration;
    this.record.length = this.length;
    await this.ctx.journal.save(this.record);
    this.state = 'Uploading';
    if (!repaired) this.ctx.changed(this);
    if (this.recording) this.startUpload();
  }

  private startUpload(): void {
    const target = this.recording?.storage;
    if (!target) {
      this.fail("The storage's credentials cannot be read by the control plane: the file cannot be uploaded");
      return;
    }
    this.uploading = this.upload(target);
  }

  private async upload(target: UploadTarget): Promise<void> {
    const { record } = this;
    const where = `"${record.objectKey}" in bucket "${target.bucket}"`;
    this.say('info', `Uploading ${megabytes(this.length)} to ${where}`);
    this.ctx.changed(this);
    try {
      const { size } = await uploadFile({
        target,
        agents: this.ctx.agents,
        key: record.objectKey,
        file: this.ctx.journal.fileOf(record),
        contentType: CONTENT_TYPES[record.format],
        from: this.ctx.from(),
        signal: this.aborter.signal,
        backoffMs: this.ctx.backoffMs,
        onProgress: (bytes) => {
          this.uploaded = bytes;
        },
        onRetry: (message, waitMs) => {
          this.say('warning', `Upload failed, trying again in ${waitMs / 1000} s: ${message}`);
          this.ctx.changed(this);
        },
      });
      this.size = size;
      record.phase = 'uploaded';
      record.size = size;
      await this.ctx.journal.save(record);
      await this.ctx.journal.dropFile(record);
      this.state = 'Completed';
      this.say('info', `Uploaded ${megabytes(size)} to ${where}`);
    } catch (error) {
      if (this.aborter.signal.aborted) return;
      const message = error instanceof UploadFailure ? error.message : String(error);
      const kept = await this.ctx.journal.keepFailed(record);
      this.ctx.log.error(`upload of recording ${record.recordingId} failed: ${message}; the file is kept at ${kept}`);
      this.fail(`Upload failed: ${message}. The file is kept on ${this.ctx.from()}`);
      return;
    }
    this.ctx.changed(this);
  }

  /**
   * The reader gave up, or the writer failed. A file the node could not write while the push went on (its disk
   * full, most likely) is closed and uploaded once the disk has room again — closing writes too — and the run
   * says it was cut, so the control plane continues the recording (a new file, started once there is room).
   */
  private async captureFailed(message: string, what: 'read' | 'write'): Promise<void> {
    if (!this.capture || this.state !== 'Recording') return;
    this.say('error', `The recorder stopped: ${message}`);
    if (what === 'read' || !this.stream || this.stream.ended) {
      await this.finish();
      return;
    }
    this.interrupted = 'write';
    this.ctx.changed(this);
    await this.endCapture();
    const room = await waitForRoom(this.ctx.dir, {
      signal: this.aborter.signal,
      onWait: (free) => {
        this.say(
          'warning',
          `Waiting for free disk space on ${this.ctx.from()} to close the file (${describeFree(free)})`,
        );
        this.ctx.changed(this);
      },
    });
    // The node stopping meanwhile: the journal still says capturing, so its next start closes the file.
    if (room) await this.close();
  }

  private fail(text: string): void {
    this.state = 'Error';
    this.say('error', text);
    this.ctx.changed(this);
  }

  private say(level: RunMessage['level'], text: string): void {
    this.messages.push({ level, text: text.slice(0, 1000) });
  }

  private lengthOf(file: string): Promise<number | null> {
    return stat(file).then(
      (info) => info.size,
      () => null,
    );
  }
}
