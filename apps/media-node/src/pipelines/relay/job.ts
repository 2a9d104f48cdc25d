import { describeSelector, type NodeRelay, type RelayStateReport, type TrackSelector } from '@streamcloud/contract';
import type { LiveStream } from '../../streams/types.js';
import type { NodeTools, PipelineContext } from '../pipeline.js';
import { type SupervisedRun, Supervisor } from '../supervisor.js';
import { RelayFailure, type RelaySource, type RelayTarget, type TargetRun } from './target.js';

/** Reconnect waits: 1, 2, 4 … 30 s. */
export const RELAY_BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30_000];
/** Uploaded bytes are reported this often while relaying. */
export const RELAY_PROGRESS_MS = 5000;
/** A run that has carried media this long is healthy: the next failure waits 1 s again. */
const HEALTHY_AFTER_MS = 5000;
/** While the push is this young, a source that cannot be read yet is waited for quietly. */
const SOURCE_GRACE_MS = 15_000;
const SOURCE_RETRY_MS = 250;

export type RelayReport = Omit<RelayStateReport, 'id' | 'kind' | 'relayId'>;

/** How a job stops: a Stop, the push's end, the relay gone from the configuration, or the node stopping. */
export type RelayEnd =
  | { how: 'stopped' }
  | { how: 'finished'; message: string }
  | { how: 'removed' }
  | { how: 'paused' };

export interface RelayJobOptions {
  context: PipelineContext;
  /** Reports about this relay (relay-state). */
  report(fields: RelayReport): void;
  /** Builds the target of a relay's configuration (throws a fatal RelayFailure when it cannot work). */
  target(relay: NodeRelay): RelayTarget;
  /** What the relay reads from the stream now; null while its tracks cannot be told yet. */
  source(relay: NodeRelay, stream: LiveStream, target: RelayTarget, tools: NodeTools): RelaySource | null;
  /** Gives up after failures lasting this long (10 minutes). */
  failingForMs: number;
}

/**
 * One relay of a live stream: runs its target under a supervisor (reconnects with backoff 1, 2, 4 … 30 s,
 * a message per attempt, Error after `failingForMs` of failures or at once for a fatal one), reports
 * the uploaded bytes every 5 s, and meters each run's bytes as the stream's outgoing usage. The uploaded
 * count goes on across a push that resumes within the reconnect grace (`carried`).
 */
export class RelayJob {
  private supervisor: Supervisor | null = null;
  private target: RelayTarget | null = null;
  private current: TargetRun | null = null;
  /** Bytes of runs that ended (plus what the relay carried from an earlier push). */
  private closedBytes: number;
  private reportedBytes = -1;
  private lastFailure: RelayFailure | null = null;
  private failedAttempts = 0;
  private progress: NodeJS.Timeout | null = null;
  private done = false;
  private warnedUnmatched = '';
  private warnedDropped = false;

  constructor(
    public relay: NodeRelay,
    private readonly stream: LiveStream,
    private readonly o: RelayJobOptions,
    carried: number,
  ) {
    this.closedBytes = carried;
  }

  /** It stopped or gave up: it runs no more. */
  get finished(): boolean {
    return this.done;
  }

  get uploaded(): number {
    return this.closedBytes + (this.current?.bytesOut() ?? 0);
  }

  /**
   * Starts relaying: a new run (Relaying from 0 bytes), or the same run going on after the push
   * resumed within the reconnect grace.
   */
  start(resumed: boolean): void {
    const label = this.describe();
    this.o.report(
      resumed
        ? { messages: [{ level: 'info', text: `The push resumed: relaying to ${label} again` }] }
        : {
            state: 'Relaying',
            uploaded: this.closedBytes,
            messages: [
              { level: 'info', text: `Relaying the ${this.relay.capture.source.toLowerCase()} stream to ${label}` },
            ],
          },
    );
    this.progress = setInterval(() => this.reportProgress(), RELAY_PROGRESS_MS);
    this.progress.unref();
    this.launch();
  }

  /** The destination as the messages name it. */
  private describe(): string {
    try {
      return this.o.target(this.relay).label;
    } catch {
      return `the ${this.relay.format} destination`;
    }
  }

  /** New settings (output or capture): the connection is made anew with them. */
  async restart(relay: NodeRelay): Promise<void> {
    this.relay = relay;
    await this.supervisor?.stop();
    if (this.done) return;
    this.o.report({ messages: [{ level: 'info', text: 'Settings changed: reconnecting' }] });
    this.launch();
  }

  /** Ends the job and answers the bytes it uploaded; reports Completed unless it is paused or removed. */
  async stop(end: RelayEnd): Promise<number> {
    if (this.done) return this.uploaded;
    this.done = true;
    if (this.progress) clearInterval(this.progress);
    await this.supervisor?.stop();
    const uploaded = this.uploaded;
    if (end.how === 'stopped' || end.how === 'finished') {
      const text =
        end.how === 'stopped' ? `Stopped: disconnected from ${this.target?.label ?? 'the destination'}` : end.message;
      this.o.report({ state: 'Completed', uploaded, messages: [{ level: 'info', text }] });
    } else if (end.how === 'paused') this.reportProgress();
    return uploaded;
  }

  private launch(): void {
    try {
      this.target = this.o.target(this.relay);
    } catch (error) {
      this.giveUp(error instanceof RelayFailure ? error : new RelayFailure(String(error), 'fatal'));
      return;
    }
    const target = this.target;
    this.failedAttempts = 0;
    const supervisor = new Supervisor({
      run: () => this.attempt(target),
      backoffMs: RELAY_BACKOFF_MS,
      failingForMs: this.o.failingForMs,
      fatal: () => this.lastFailure?.kind === 'fatal',
      onEnded: (failure, restartInMs, attempt) => {
        if (failure === null) return;
        this.failedAttempts = attempt;
        this.o.report({
          messages: [
            {
              level: 'warning',
              text: `Relay to ${target.label} failed: ${failure}; retrying in ${restartInMs / 1000} s (attempt ${attempt})`,
            },
          ],
        });
      },
      onGiveUp: (failure) => this.giveUp(this.lastFailure ?? new RelayFailure(failure, 'target')),
    });
    this.supervisor = supervisor;
    supervisor.start();
  }

  private giveUp(failure: RelayFailure): void {
    if (this.done) return;
    this.done = true;
    if (this.progress) clearInterval(this.progress);
    const label = this.target?.label ?? 'the destination';
    const minutes = Math.round(this.o.failingForMs / 60_000);
    const text =
      failure.kind === 'fatal'
        ? `Relay to ${label} failed: ${failure.message}`
        : `Relay to ${label} failed for ${minutes} minutes: ${failure.message}`;
    this.o.report({ state: 'Error', uploaded: this.uploaded, messages: [{ level: 'error', text }] });
  }

  /** One supervised attempt: target runs, retried quietly while a young push's media cannot be read yet. */
  private attempt(target: RelayTarget): SupervisedRun {
    let stopped = false;
    let run: TargetRun | null = null;
    const ended = (async (): Promise<string | null> => {
      for (;;) {
        const source = await this.waitForSource(target, () => stopped);
        if (stopped || this.stream.ended) return null;
        if (!source) throw new RelayFailure("the stream's tracks could not be read", 'source');
        if (source.tracks.length === 0)
          throw new RelayFailure("the capture takes none of the stream's tracks", 'fatal');
        this.warnUnmatched(source.unmatched);
        this.warnDropped(source);
        run = this.startRun(target, source);
        const failure = await run.ended;
        this.o.context.log.debug(
          `relay ${this.relay.id} of ${this.stream.assigned.name}: a run ended${failure ? `: ${failure.message}` : ''}`,
        );
        if (stopped || this.stream.ended || failure === null) return null;
        this.lastFailure = failure;
        const young = Date.now() - this.stream.startedAt.getTime() < SOURCE_GRACE_MS;
        if (failure.kind !== 'source' || !young) return failure.message;
        await new Promise((resolve) => setTimeout(resolve, SOURCE_RETRY_MS));
        if (stopped) return null;
      }
    })().catch((error: unknown) => {
      this.lastFailure = error instanceof RelayFailure ? error : new RelayFailure(String(error), 'target');
      return this.lastFailure.message;
    });
    return {
      ended,
      stop: async () => {
        stopped = true;
        await (run as TargetRun | null)?.stop();
        await ended;
      },
    };
  }

  /** Starts a target run, metered as the stream's outgoing traffic; its bytes join the total when it ends. */
  private startRun(target: RelayTarget, source: RelaySource): TargetRun {
    let healthy: NodeJS.Timeout | null = null;
    const run = target.run(source, () => {
      if (this.failedAttempts > 0)
        this.o.report({ messages: [{ level: 'info', text: `Relaying to ${target.label} again` }] });
      this.failedAttempts = 0;
      healthy = setTimeout(() => this.supervisor?.healthy(), HEALTHY_AFTER_MS);
      healthy.unref();
    });
    this.current = run;
    const unmeter = this.o.context.meter({
      streamId: this.stream.assigned.id,
      bytesOut: () => run.bytesOut(),
      bytesIn: () => run.bytesIn(),
    });
    void run.ended.then(() => {
      if (healthy) clearTimeout(healthy);
      unmeter();
      this.closedBytes += run.bytesOut();
      if (this.current === run) this.current = null;
    });
    return run;
  }

  /** What a run reads, waiting (while the push goes on) for the stream's tracks to be probed when needed. */
  private async waitForSource(target: RelayTarget, stopped: () => boolean): Promise<RelaySource | null> {
    const deadline = Date.now() + SOURCE_GRACE_MS;
    for (;;) {
      const source = this.o.source(this.relay, this.stream, target, this.o.context.tools);
      if (source || stopped() || this.stream.ended || Date.now() > deadline) return source;
      await new Promise((resolve) => setTimeout(resolve, SOURCE_RETRY_MS));
    }
  }

  /** Says once how many of the captured tracks the destination cannot carry. */
  private warnDropped(source: RelaySource): void {
    if (source.dropped === 0 || this.warnedDropped) return;
    this.warnedDropped = true;
    const tracks = `${source.dropped} track${source.dropped === 1 ? '' : 's'}`;
    this.o.report({
      messages: [
        {
          level: 'warning',
          text: `${this.relay.format} carries one video and one audio track: ${tracks} of the capture not relayed`,
        },
      ],
    });
  }

  /** Says once which selectors take no track of the stream (the others are relayed). */
  private warnUnmatched(unmatched: number[]): void {
    const key = unmatched.join(',');
    if (unmatched.length === 0 || key === this.warnedUnmatched) return;
    this.warnedUnmatched = key;
    const which = unmatched.map((position) => describeSelector(this.relay.capture.tracks[position] as TrackSelector));
    this.o.report({
      messages: [{ level: 'warning', text: `No track of the stream matches: ${which.join('; ')}` }],
    });
  }

  /**
   * The bytes sent so far, with the state they are sent in: a control plane that moved the relay to Error while
   * it heard nothing from this node (its database down, the network cut) sees it Relaying again from the next
   * report, whatever happened to the report that started the run.
   */
  private reportProgress(): void {
    const uploaded = this.uploaded;
    if (uploaded === this.reportedBytes) return;
    this.reportedBytes = uploaded;
    this.o.report({ state: 'Relaying', uploaded });
  }
}
