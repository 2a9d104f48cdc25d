import type { Capture } from '@streamcloud/contract';
import type { Scope, UnitOfWorkPart } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import { serves } from '../access/access.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { measuredAt, type ReportContext } from '../nodes/index.js';
import type { StreamJobSubject } from './stream-job-events.js';
import type { MessageRow, Owned, StreamJobState, StreamJobsRepository } from './stream-jobs.repository.js';

/** What a kind of stream job uses: its own repository (`K`), access, the audit log and the events it publishes. */
export type StreamJobsScope<K extends UnitOfWorkPart> = Scope<K | 'access' | 'audit' | 'events'>;

export interface StreamJobsServiceDeps<K extends UnitOfWorkPart> {
  uow: StreamJobsScope<K>;
  clock: Clock;
}

/** The columns every stream job has. */
export interface StreamJobRow {
  id: string;
  input_id: string;
  autostart: boolean;
  callback_uri: string | null;
  capture: Capture;
  state: StreamJobState;
  uploaded: number;
  stop_requested_at: Date | null;
  runner_id: string | null;
  runner_lost_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What the API answers of every stream job. */
export function streamJobView<Row extends StreamJobRow>(row: Row, messages: MessageRow[]) {
  return {
    id: row.id,
    streamId: row.input_id,
    autostart: row.autostart,
    callbackUri: row.callback_uri,
    capture: row.capture,
    state: row.state as Row['state'],
    uploaded: row.uploaded,
    messages: messages.map((message) => ({ at: message.at.toISOString(), level: message.level, text: message.text })),
    stopRequested: row.stop_requested_at !== null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** What the node serving the stream is told of every stream job. */
export function nodeStreamJobView<Row extends StreamJobRow>(row: Owned<Row>) {
  return {
    id: row.id,
    streamId: row.input_id,
    streamName: row.stream_name,
    autostart: row.autostart,
    capture: row.capture,
    state: row.state as Row['state'],
    stopRequested: row.stop_requested_at !== null,
    callbackUri: row.callback_uri,
  };
}

/** The progress figures a node reports; a new run starts them at 0. */
type Counter = 'duration' | 'length' | 'uploaded';

/** What a node reports about a job, besides naming it. */
export interface StreamJobReport {
  at?: string;
  state?: StreamJobState;
  messages?: Array<{ level: MessageRow['level']; text: string }>;
}

/** What tells one kind of stream job from the other. */
export interface StreamJobKind<Row, Job, Report> {
  /** As in texts, audit actions, the audit's target type and access checks: 'recording'. */
  noun: 'recording' | 'relay';
  /** As in 404s: 'Recording'. */
  entity: 'Recording' | 'Relay';
  /** The state a job runs in. Reporting it after Completed or Error starts a new run. */
  running: StreamJobState;
  /** Where a node may move a job from a running state (any state may stay as it is). */
  next: Partial<Record<StreamJobState, readonly StreamJobState[]>>;
  /** The progress figures of a report. */
  counters: readonly Counter[];
  /** The job a report is about. */
  reportedJob: (report: Report) => string;
  /** What else of a report is stored (a new run starts without it). */
  reportedColumns?: (report: Report, newRun: boolean) => object;
  present: (row: Owned<Row>, messages: MessageRow[]) => Job;
  /** What a job's Completed event adds to the job (a recording's file). */
  completed?: (row: Owned<Row>) => object;
}

/**
 * Which state a node may report from which: along `next` from a running state, and back to the running
 * state after Completed or Error for an autostarting job that was not stopped (a new run). A job that went
 * to Error because its node was lost (`runner_lost_at`) may go on from where a run goes when that node
 * comes back and reports it, if the kind is recoverable (a recording's file gets uploaded after all); of
 * the other kind (a relay), it may run again if nobody stopped it.
 */
export function streamJobTransitionAllowed(
  kind: Pick<StreamJobKind<unknown, unknown, unknown>, 'running' | 'next'> & { recoverable?: boolean },
  row: Pick<StreamJobRow, 'state' | 'autostart' | 'stop_requested_at' | 'runner_lost_at'>,
  to: StreamJobState,
): boolean {
  if (row.state === to) return true;
  if (row.state === 'Error' && row.runner_lost_at !== null && kind.recoverable && to !== kind.running) {
    return kind.next[kind.running]?.includes(to) ?? false;
  }
  // A relay its node's silence stopped goes on when that node, back, runs it again (nobody stopped it).
  if (row.state === 'Error' && row.runner_lost_at !== null && !kind.recoverable && to === kind.running) {
    return row.stop_requested_at === null;
  }
  if (row.state === 'Completed' || row.state === 'Error') {
    return to === kind.running && row.autostart && row.stop_requested_at === null;
  }
  return kind.next[row.state]?.includes(to) ?? false;
}

/**
 * What recordings and relays share: they belong to their stream's account (the stream's owner and ADMIN
 * see and change them, anyone else gets 404), a user may stop them while running and delete them once
 * Completed or Error, and the node serving the stream reports their state.
 */
export abstract class StreamJobsService<
  Row extends StreamJobRow,
  New extends { id: string },
  Changes extends object,
  Job,
  Report extends StreamJobReport,
  K extends UnitOfWorkPart,
> {
  private readonly trail: AuditTrail;

  protected constructor(
    private readonly kind: StreamJobKind<Row, Job, Report>,
    private readonly base: StreamJobsServiceDeps<K>,
  ) {
    this.trail = new AuditTrail(base.uow.audit, base.clock, kind.noun);
  }

  /** This kind's repository in a unit of work. */
  protected abstract jobsOf(uow: StreamJobsScope<K>): StreamJobsRepository<Row, New, Changes>;

  protected get jobs(): StreamJobsRepository<Row, New, Changes> {
    return this.jobsOf(this.base.uow);
  }

  async get(auth: AuthContext, id: string): Promise<Job> {
    await this.base.uow.access.require(auth, this.kind.noun, id);
    const [row, messages] = await Promise.all([this.jobs.findById(id), this.jobs.messages([id])]);
    if (!row) throw notFound(this.kind.entity);
    return this.kind.present(row, messages.get(id) ?? []);
  }

  async listByStream(auth: AuthContext, streamId: string, active: boolean): Promise<Job[]> {
    await this.base.uow.access.require(auth, 'stream', streamId);
    return this.presentAll(await this.jobs.listByStream(streamId, active));
  }

  /**
   * Asks the node to stop; only while running. Asking again changes nothing: of concurrent requests, the
   * one whose update marks the job writes the message and the audit entry.
   */
  async stop(auth: AuthContext, id: string): Promise<Job> {
    const { noun, running } = this.kind;
    const row = await this.owned(auth, id);
    if (row.state !== running) {
      throw conflict(`A ${noun} can be stopped only while ${running}; it is ${row.state}`, 'INVALID_STATE');
    }
    if (row.stop_requested_at === null) {
      const now = this.base.clock.now();
      const marked = await this.base.uow.transaction(async (uow) => {
        const jobs = this.jobsOf(uow);
        if (!(await jobs.requestStop(id, now))) return false;
        await jobs.addMessages(id, [{ at: now, level: 'info', text: `Stopped by ${auth.username}` }]);
        return true;
      });
      if (marked) await this.audit(auth, 'stop', id, {});
    }
    return this.get(auth, id);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const row = await this.owned(auth, id);
    if (row.state !== 'Completed' && row.state !== 'Error') {
      throw conflict(
        `A ${this.kind.noun} can be deleted only when Completed or Error; it is ${row.state}`,
        'INVALID_STATE',
      );
    }
    if (!(await this.jobs.delete(id))) throw notFound(this.kind.entity);
    await this.audit(auth, 'delete', id, { streamId: row.input_id });
  }

  /**
   * Node-facing: applies state reports inside the batch's transaction. A report about a job of a stream
   * this node does not serve, or with a state the rules do not allow from the current one (a stale or
   * out-of-order report), changes nothing.
   */
  readonly applyStateReports = async (context: ReportContext<StreamJobsScope<K>>, reports: Report[]): Promise<void> => {
    const { running, counters, reportedJob } = this.kind;
    const jobs = this.jobsOf(context.uow);
    for (const report of reports) {
      const row = await jobs.findById(reportedJob(report));
      if (!row || !serves(context.node, row.node_id)) continue;
      const state = report.state ?? row.state;
      if (!streamJobTransitionAllowed({ ...this.kind, recoverable: this.jobs.recoverable }, row, state)) continue;
      const newRun = state === running && row.state !== running;
      const columns = {
        ...this.kind.reportedColumns?.(report, newRun),
        // The reporting node runs it now (and is not lost).
        runner_id: context.node.id,
        runner_name: context.node.name,
        runner_lost_at: null,
      };
      const progress = Object.fromEntries(
        counters.map((counter) => [
          counter,
          (report as Partial<Record<Counter, number>>)[counter] ??
            (newRun ? 0 : (row as unknown as Record<Counter, number>)[counter]),
        ]),
      );
      await jobs.update(row.id, { state, ...progress, ...columns } as Changes, context.receivedAt);
      const at = measuredAt(context, report.at);
      await jobs.addMessages(
        row.id,
        (report.messages ?? []).map((message) => ({ at, level: message.level, text: message.text })),
      );
      if (state !== row.state || newRun) {
        const error = report.messages?.filter((message) => message.level === 'error').at(-1)?.text;
        await this.emit(
          context.uow,
          { ...row, state, ...progress, ...columns, updated_at: context.receivedAt } as Owned<Row>,
          at,
          error,
        );
      }
    }
  };

  /**
   * The stuck-item rule: a job Recording, Uploading or Relaying whose node was deleted, or has sent
   * nothing for `silenceMs`, would stay so for ever (only that node reports on it, and a running job
   * cannot be deleted). It moves to Error with why, so its owner can delete it; one stopped before any node
   * ran it, to Completed. One no node ran and nobody stopped stays: it waits for its stream, as a new one
   * does (a continuation made while its node was away again must not be lost). Answers how many moved.
   */
  async expireLostNodes(silenceMs: number): Promise<number> {
    const now = this.base.clock.now();
    const { noun } = this.kind;
    const since = new Date(now.getTime() - silenceMs);
    const lost = await this.jobs.onLostNodes(since);
    let moved = 0;
    for (const job of lost) {
      const why = job.deleted
        ? `Node ${job.nodeName} was deleted`
        : `Node ${job.nodeName} stopped reporting for ${Math.round(silenceMs / 1000)} s`;
      const outlook = this.jobs.recoverable
        ? `the ${noun} cannot go on here (if the node comes back with its file, it is uploaded)`
        : job.deleted
          ? `the ${noun} is lost`
          : `the ${noun} stopped (it goes on if the node comes back while the stream is live there)`;
      moved += await this.base.uow.transaction(async (uow) => {
        const jobs = this.jobsOf(uow);
        // Checked again under the row's lock: the node may have reported on it (come back) since the list was read.
        await jobs.lock(job.id);
        if ((await jobs.onLostNodes(since, job.id)).length === 0) return 0;
        const current = await jobs.findById(job.id);
        if (!current) return 0;
        if (job.neverRan) {
          // Stopped before any node ran it: nothing was lost, it is simply over.
          await jobs.update(job.id, { state: 'Completed' } as Changes, now);
          const text = `${why}, and the ${noun} was stopped before it started: nothing was done`;
          await jobs.addMessages(job.id, [{ at: now, level: 'info', text }]);
          await this.emit(uow, { ...current, state: 'Completed', updated_at: now }, now);
          return 1;
        }
        await jobs.update(job.id, { state: 'Error', runner_lost_at: now } as Changes, now);
        const text = `${why}: ${outlook}`;
        await jobs.addMessages(job.id, [{ at: now, level: 'error', text }]);
        await this.emit(uow, { ...current, state: 'Error', runner_lost_at: now, updated_at: now }, now, text);
        return 1;
      });
    }
    return moved;
  }

  /**
   * The webhook event of the state `row` just entered, if it has one and the job a callback, written with
   * `jobs` (the change's transaction).
   */
  /** Publishes `stream-job.changed` when the job entered its running state, Completed or Error. */
  private async emit(uow: StreamJobsScope<K>, row: Owned<Row>, at: Date, error?: string): Promise<void> {
    const phase =
      row.state === this.kind.running
        ? 'started'
        : row.state === 'Completed'
          ? 'completed'
          : row.state === 'Error'
            ? 'error'
            : null;
    if (!phase) return;
    const job: StreamJobSubject = {
      noun: this.kind.noun,
      id: row.id,
      ownerId: row.owner_id,
      streamId: row.input_id,
      callbackUri: row.callback_uri,
    };
    const jobs = this.jobsOf(uow);
    await uow.events.publish('stream-job.changed', {
      job,
      phase,
      at,
      ...(error !== undefined ? { error } : {}),
      present: async () => {
        const messages = await jobs.messages([row.id]);
        const presented = this.kind.present(row, messages.get(row.id) ?? []) as object;
        return phase === 'completed' ? { ...presented, ...(this.kind.completed?.(row) ?? {}) } : presented;
      },
    });
  }

  /** Inserts a new job in its first state with its first message, then audits its creation. */
  protected async add(auth: AuthContext, job: New, details: Record<string, unknown>): Promise<Job> {
    const now = this.base.clock.now();
    await this.base.uow.transaction((uow) => this.insertRunning(uow, job, `Created by ${auth.username}`, now));
    await this.audit(auth, 'create', job.id, details);
    return this.get(auth, job.id);
  }

  /** Inserts a job, running (its run starts now), with `message` as its first, in the caller's transaction. */
  protected async insertRunning(uow: StreamJobsScope<K>, job: New, message: string, at: Date): Promise<void> {
    const jobs = this.jobsOf(uow);
    await jobs.insert(job);
    await jobs.addMessages(job.id, [{ at, level: 'info', text: message }]);
    const created = await jobs.findById(job.id);
    if (created) await this.emit(uow, created, at);
  }

  /** The job once the caller's access is checked. */
  protected async owned(auth: AuthContext, id: string): Promise<Owned<Row>> {
    await this.base.uow.access.require(auth, this.kind.noun, id);
    const row = await this.jobs.findById(id);
    if (!row) throw notFound(this.kind.entity);
    return row;
  }

  protected async presentAll(rows: Owned<Row>[]): Promise<Job[]> {
    const messages = await this.jobs.messages(rows.map((row) => row.id));
    return rows.map((row) => this.kind.present(row, messages.get(row.id) ?? []));
  }

  /** Records `<noun>.<action>` on the job, with the caller and the impersonating admin. */
  protected audit(auth: AuthContext, action: string, targetId: string, details: Record<string, unknown>) {
    return this.trail.record(auth, `${this.kind.noun}.${action}`, targetId, details);
  }
}
