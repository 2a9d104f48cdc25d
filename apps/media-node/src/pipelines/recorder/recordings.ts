import type { ConfigPart, NodeRecording } from '@streamcloud/contract';
import type { GuardedAgents } from '@streamcloud/net-guard';
import type { ControlPlaneClient, Reporter } from '../../control-plane.js';
import type { Logger } from '../../log.js';
import type { AssignedStream } from '../../streams/directory.js';
import type { StreamListener } from '../../streams/events.js';
import type { LiveStream } from '../../streams/types.js';
import type { NodeTools, StopReason } from '../pipeline.js';
import { describeFree, freeBytes, hasRoom } from './disk-room.js';
import { RecordingJournal } from './journal.js';
import { RecordingRun } from './run.js';

/** Recording runs report their progress this often. */
const PROGRESS_MS = 2000;
/** A report carries at most this many messages (the contract's limit). */
const MESSAGES_PER_REPORT = 20;

export interface RecordingsOptions {
  client: Pick<ControlPlaneClient, 'recordings'>;
  reporter: Pick<Reporter, 'send' | 'delivered'>;
  /** The streams the node serves, with the version of their recordings. */
  assignedStreams(): readonly AssignedStream[];
  tools: NodeTools;
  /** Uploads connect through these: net-guard's agents under the operator's address policy. */
  agents: GuardedAgents;
  log: Logger;
  /** Where recordings are written and journaled. */
  dir: string;
  /** Who records, for messages ('node eu-1'). */
  from(): string;
  backoffMs?: readonly number[];
}

/**
 * The node's recordings: every run (one file) from its first push to its object in the storage, and
 * what outlives one push — a run waiting out the reconnect grace, uploads going on after the stream
 * ended, runs found in the journal after a restart. The recorder pipeline of each live stream asks it
 * to run the stream's recordings; it reports each recording's state, one run at a time per recording (a
 * later run of an autostarting recording reports once the earlier one is Completed or Error).
 */
export class Recordings implements StreamListener {
  private readonly journal: RecordingJournal;
  /** What `GET /node/recordings` answered last, by recording id. */
  private listing = new Map<string, NodeRecording>();
  /** The recordings version of each stream that the listing reflects. */
  private readonly listed = new Map<string, string>();
  /** Runs not done, and done runs until their final report is delivered, oldest first. */
  private runs: RecordingRun[] = [];
  /** Final reports queued: the run is forgotten once the control plane has it. */
  private readonly finals = new Map<RecordingRun, number>();
  /** Recordings that had a run on this node (a non-autostarting recording runs once). */
  private readonly ran = new Set<string>();
  private readonly figures = new Map<RecordingRun, string>();
  /** Recordings to start on a live stream, waiting for room on the disk (by recording id). */
  private readonly held = new Map<string, LiveStream>();
  private refreshing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly o: RecordingsOptions) {
    this.journal = new RecordingJournal(o.dir);
  }

  /** Opens the journal, takes up the runs a previous life of the node left, and starts reporting. */
  async start(): Promise<void> {
    await this.journal.open();
    const recovered = (await this.journal.list()).map((record) => RecordingRun.recovered(record, this.context()));
    for (const run of recovered) {
      this.runs.push(run);
      this.ran.add(run.recordingId);
    }
    await this.refresh().catch((error: unknown) => this.o.log.error(`reading the recordings failed: ${String(error)}`));
    for (const run of recovered) {
      if (!this.runs.includes(run)) continue;
      await run.recover();
      this.report(run);
    }
    this.timer = setInterval(() => void this.tick(), PROGRESS_MS);
    this.timer.unref();
  }

  /** The node stops: files being written are closed and uploads interrupted; the journal keeps both for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.runs.map((run) => run.shelve()));
  }

  /**
   * The files recorded and not in their storage yet (waiting for it, or being uploaded), for the node's health:
   * each counts whole, since it stays on the node's disk until the upload has succeeded.
   */
  uploadBacklog(): { files: number; bytes: number } {
    const waiting = this.runs.filter((run) => run.state === 'Uploading');
    return { files: waiting.length, bytes: waiting.reduce((sum, run) => sum + run.length, 0) };
  }

  /** The recordings a live stream should run now (the recorder pipeline's configuration). */
  async runnable(assigned: AssignedStream): Promise<NodeRecording[]> {
    if (this.listed.get(assigned.id) !== assigned.versions.recordings) await this.refresh();
    return [...this.listing.values()].filter(
      (recording) =>
        recording.streamId === assigned.id &&
        !recording.stopRequested &&
        (recording.autostart ||
          (recording.state === 'Recording' && (!this.ran.has(recording.id) || this.capturing(recording.id)))),
    );
  }

  /** Runs a live stream's recordings: new files for new recordings, the same file for a push that resumed. */
  async run(stream: LiveStream, recordings: readonly NodeRecording[]): Promise<void> {
    const wanted = new Set(recordings.map((recording) => recording.id));
    for (const run of this.runs)
      if (run.capturing && run.record.streamId === stream.assigned.id && !wanted.has(run.recordingId))
        void this.finish(run);
    for (const recording of recordings) {
      const current = this.runs.find((run) => run.recordingId === recording.id && run.capturing);
      if (current) {
        current.attach(stream);
        continue;
      }
      if (this.held.has(recording.id)) {
        this.held.set(recording.id, stream);
        continue;
      }
      if (!(await hasRoom(this.o.dir))) {
        await this.hold(recording.id, stream);
        continue;
      }
      await this.begin(recording, stream);
    }
  }

  private async begin(recording: NodeRecording, stream: LiveStream): Promise<void> {
    this.ran.add(recording.id);
    const run = await RecordingRun.begin(recording, stream, this.context());
    this.runs.push(run);
    this.report(run);
  }

  /**
   * A recording to start while the disk has no room for it: it waits (said once), and starts on the tick that
   * finds room, if its stream is still live and it still should run; until then it is not `ran` (a Stop ends it
   * as one that never ran).
   */
  private async hold(recordingId: string, stream: LiveStream): Promise<void> {
    this.held.set(recordingId, stream);
    const text = `Waiting for free disk space on ${this.o.from()} to record (${describeFree(await freeBytes(this.o.dir))})`;
    this.o.reporter.send({
      kind: 'recording-state',
      recordingId,
      at: new Date().toISOString(),
      messages: [{ level: 'warning', text }],
    });
  }

  /** Starts the held recordings once there is room (their stream still live, the recording still wanted). */
  private async startHeld(): Promise<void> {
    if (this.held.size === 0 || !(await hasRoom(this.o.dir))) return;
    for (const [recordingId, stream] of [...this.held]) {
      this.held.delete(recordingId);
      const recording = this.listing.get(recordingId);
      if (stream.ended || !recording || recording.stopRequested) continue;
      if (!(await this.runnable(stream.assigned)).some((each) => each.id === recordingId)) continue;
      await this.begin(recording, stream);
    }
  }

  /** The recorder pipeline of a stream stopped: its files wait for the push to resume, or are finished. */
  release(stream: LiveStream, reason: StopReason): void {
    for (const run of this.runs) {
      if (run.stream !== stream) continue;
      // A push stopped from the control plane gets no grace: its files end with it.
      if (reason === 'push ended' && !stream.stoppedByControlPlane) run.detach(stream);
      else if (reason !== 'node stopping') void this.finish(run);
    }
  }

  /** The reconnect grace ended without a new push: the files waiting for one are finished. */
  gone(streamId: string): void {
    for (const run of this.runs)
      if (run.capturing && !run.stream && run.record.streamId === streamId) void this.finish(run);
  }

  /** A recording of a stream that is not live may have been stopped (it then ends without a file). */
  configChanged(_assigned: AssignedStream, parts: ReadonlySet<ConfigPart>): void {
    if (parts.has('recordings')) void this.refresh().catch(() => undefined);
  }

  /**
   * Reads `GET /node/recordings` (after any read already going on, which may predate a change): every
   * run learns its recording's current storage, and stopped recordings that never ran here end.
   */
  refresh(): Promise<void> {
    this.queued ??= (async () => {
      await this.refreshing?.catch(() => undefined);
      this.queued = null;
      const versions = this.o.assignedStreams().map((assigned) => [assigned.id, assigned.versions.recordings] as const);
      const reading = this.read(versions);
      this.refreshing = reading;
      await reading;
    })();
    return this.queued;
  }

  private async read(versions: ReadonlyArray<readonly [string, string]>): Promise<void> {
    const recordings = await this.o.client.recordings();
    this.listing = new Map(recordings.map((recording) => [recording.id, recording]));
    for (const [streamId, version] of versions) this.listed.set(streamId, version);
    for (const run of this.runs) {
      const recording = this.listing.get(run.recordingId);
      if (recording) run.know(recording);
      else if (!run.recording && !run.done) await this.orphan(run);
    }
    for (const recording of recordings) {
      if (recording.stopRequested && recording.state === 'Recording' && !this.ran.has(recording.id)) {
        this.ran.add(recording.id);
        this.o.reporter.send({
          kind: 'recording-state',
          recordingId: recording.id,
          at: new Date().toISOString(),
          state: 'Completed',
          messages: [{ level: 'info', text: 'Stopped before the stream was live here: nothing was recorded' }],
        });
      }
    }
  }

  private async finish(run: RecordingRun): Promise<void> {
    await run.finish();
    this.report(run);
  }

  /** A run found after a restart whose recording no longer waits for it (deleted, or Error meanwhile). */
  private async orphan(run: RecordingRun): Promise<void> {
    this.runs = this.runs.filter((other) => other !== run);
    const kept = await run.orphan();
    this.o.log.error(
      `recording ${run.recordingId} no longer waits for its file (deleted, or in Error while this node was away): the file is kept at ${kept}`,
    );
  }

  private capturing(recordingId: string): boolean {
    return this.runs.some((run) => run.recordingId === recordingId && run.capturing);
  }

  /** The run whose state the control plane sees for its recording: the oldest one not reported done. */
  private front(recordingId: string): RecordingRun | undefined {
    return this.runs.find((run) => run.recordingId === recordingId && !this.finals.has(run));
  }

  /** Reports the run's state, figures and new messages, when it is its recording's front run. */
  private report(run: RecordingRun): void {
    if (this.stopped || this.finals.has(run) || this.front(run.recordingId) !== run) return;
    const figures = `${run.state} ${run.duration} ${run.length} ${run.uploaded}`;
    if (run.messages.length === 0 && this.figures.get(run) === figures) return;
    this.figures.set(run, figures);
    const sequence = this.o.reporter.send({
      kind: 'recording-state',
      recordingId: run.recordingId,
      at: new Date().toISOString(),
      state: run.state,
      duration: Math.round(run.duration * 1000) / 1000,
      length: run.length,
      uploaded: run.state === 'Completed' ? (run.size ?? run.uploaded) : run.uploaded,
      objectKey: run.record.objectKey,
      messages: run.takeMessages(MESSAGES_PER_REPORT),
      ...(run.interrupted ? { interrupted: true as const, interruptedBy: run.interrupted } : {}),
    });
    if (run.done && run.messages.length === 0) {
      this.finals.set(run, sequence);
      // The recording's next run (autostart) may report now.
      const next = this.front(run.recordingId);
      if (next) this.report(next);
    }
  }

  private async tick(): Promise<void> {
    await this.startHeld();
    for (const run of [...this.runs]) {
      await run.measure();
      this.report(run);
    }
    for (const [run, sequence] of this.finals) {
      if (this.o.reporter.delivered < sequence) continue;
      this.finals.delete(run);
      this.figures.delete(run);
      this.runs = this.runs.filter((other) => other !== run);
      await run.forget();
    }
  }

  private context() {
    return {
      tools: this.o.tools,
      agents: this.o.agents,
      journal: this.journal,
      log: this.o.log,
      from: this.o.from,
      dir: this.o.dir,
      changed: (run: RecordingRun) => this.report(run),
      backoffMs: this.o.backoffMs,
    };
  }
}
