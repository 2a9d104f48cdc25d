import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { RecordingsTable, RelaysTable } from '../../db/schema.js';
import { nodeReportedSince } from '../nodes/node-reports.repository.js';

export type StreamJobState = RecordingsTable['state'] | RelaysTable['state'];

/**
 * Where one kind of stream job lives: recordings and relays are jobs on a stream that the stream's node
 * runs for the stream's account, each with its latest status messages.
 */
export interface StreamJobTables {
  jobs: 'recordings' | 'relays';
  messages: 'recording_messages' | 'relay_messages';
  /** The messages' column naming their job. */
  messageKey: 'recording_id' | 'relay_id';
  /** The columns kept as JSON. */
  json: readonly ('capture' | 'output')[];
  /** The states a node runs or finishes a job in (it also runs autostarting jobs not stopped). */
  active: readonly StreamJobState[];
  /**
   * Whether a job whose node was lost can still be finished by that node when it comes back (a
   * recording's file is on its disk): the node is then still told of it.
   */
  recoverable: boolean;
}

/** A job with what its stream says about who owns it and which node serves it. */
export type Owned<Row> = Row & { owner_id: string; node_id: string | null; stream_name: string };

export interface MessageRow {
  at: Date;
  level: 'info' | 'warning' | 'error';
  text: string;
}

/** An active job whose node is gone (deleted, or silent). */
export interface LostJob {
  id: string;
  nodeName: string;
  deleted: boolean;
  /** No node ever ran it: it waited for its stream, and was stopped meanwhile. */
  neverRan: boolean;
}

/** Messages kept per job: the dashboard shows the recent ones. */
export const STREAM_JOB_MESSAGES_KEPT = 50;

/** The queries recordings and relays share, on the columns both tables have; a subclass names its tables. */
export class StreamJobsRepository<Row extends { id: string }, New extends { id: string }, Changes extends object> {
  constructor(
    /** The connection it queries: a transaction's within `transaction`. */
    readonly db: Db,
    private readonly tables: StreamJobTables,
  ) {}

  /** The states a node runs or finishes a job in. */
  get active(): readonly StreamJobState[] {
    return this.tables.active;
  }

  /** Whether a job whose node was lost may still be finished by that node (see StreamJobTables). */
  get recoverable(): boolean {
    return this.tables.recoverable;
  }

  protected owned() {
    return this.db
      .selectFrom(this.db.dynamic.table(this.tables.jobs).as('r'))
      .innerJoin('inputs as i', 'i.id', 'r.input_id')
      .selectAll('r')
      .select(['i.owner_id', 'i.node_id', 'i.name as stream_name']);
  }

  async insert(job: New): Promise<void> {
    await this.db
      .insertInto(this.tables.jobs)
      // New is the row of the subclass's own table, which the compiler cannot tell from the union here.
      .values({ ...job, ...this.json(job) } as never)
      .execute();
  }

  async findById(id: string): Promise<Owned<Row> | null> {
    return ((await this.owned().where('r.id', '=', id).executeTakeFirst()) as Owned<Row> | undefined) ?? null;
  }

  /** A stream's jobs (the active ones only, or all), autostarting first, then by creation. */
  async listByStream(streamId: string, activeOnly: boolean): Promise<Owned<Row>[]> {
    let query = this.owned().where('r.input_id', '=', streamId);
    if (activeOnly) query = query.where('r.state', 'in', this.tables.active);
    return (await query
      .orderBy('r.autostart', 'desc')
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute()) as Owned<Row>[];
  }

  /**
   * What a node runs or finishes: active jobs, and autostarting ones not stopped, on its streams; and the
   * ones that moved to Error when this node was lost: of a recoverable kind to finish (a recording's file),
   * of the other (a relay) to run again unless stopped.
   */
  async ofNode(nodeId: string): Promise<Owned<Row>[]> {
    return (await this.owned()
      .where('i.node_id', '=', nodeId)
      .where((eb) =>
        eb.or([
          eb('r.state', 'in', this.tables.active),
          eb.and([eb('r.autostart', '=', true), eb('r.stop_requested_at', 'is', null)]),
          eb.and([
            eb('r.runner_id', '=', nodeId),
            eb('r.runner_lost_at', 'is not', null),
            ...(this.tables.recoverable ? [] : [eb('r.stop_requested_at', 'is', null)]),
          ]),
        ]),
      )
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute()) as Owned<Row>[];
  }

  /**
   * Active jobs whose node is gone: the node that runs them was deleted, or it (for a job no node has
   * reported on yet, the node serving its stream) has sent no report since `since` and existed before.
   */
  async onLostNodes(since: Date, onlyId?: string): Promise<LostJob[]> {
    let query = this.db
      .selectFrom(this.db.dynamic.table(this.tables.jobs).as('r'))
      .innerJoin('inputs as i', 'i.id', 'r.input_id')
      .leftJoin('nodes as n', (join) => join.on(sql<boolean>`n.id = coalesce(r.runner_id, i.node_id)`))
      .select([
        'r.id',
        sql<string | null>`coalesce(n.name, r.runner_name)`.as('node_name'),
        'n.id as node_id',
        'r.runner_name',
      ])
      .where('r.state', 'in', this.tables.active)
      .where((eb) =>
        eb.or([
          eb.and([eb('r.runner_id', 'is', null), eb('r.runner_name', 'is not', null)]),
          eb.and([
            eb('n.id', 'is not', null),
            eb('n.created_at', '<', since),
            eb.not(nodeReportedSince('n.id', since)),
            // A job no node ran yet is not stuck there: it waits for its stream (wherever that goes live next),
            // as a new one does, unless it was stopped meanwhile.
            eb.or([eb('r.runner_name', 'is not', null), eb('r.stop_requested_at', 'is not', null)]),
          ]),
        ]),
      );
    if (onlyId !== undefined) query = query.where('r.id', '=', onlyId);
    const rows = await query.execute();
    return rows.map((row) => ({
      id: row.id,
      nodeName: row.node_name ?? 'unknown',
      deleted: row.node_id === null,
      neverRan: row.runner_name === null,
    }));
  }

  /**
   * Holds the job's row until the transaction ends: a node's report on it (which updates the row) then waits,
   * or is waited for, so a check made under the lock still holds when the change is written.
   */
  async lock(id: string): Promise<void> {
    await this.db.selectFrom(this.tables.jobs).select('id').where('id', '=', id).forUpdate().executeTakeFirst();
  }

  async update(id: string, changes: Changes, now: Date): Promise<void> {
    await this.db
      .updateTable(this.tables.jobs)
      .set({ ...changes, ...this.json(changes), updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Marks a job as asked to stop unless it already is: answers whether this call marked it. */
  async requestStop(id: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable(this.tables.jobs)
      .set({ stop_requested_at: now, updated_at: now })
      .where('id', '=', id)
      .where('stop_requested_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom(this.tables.jobs).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Adds messages and keeps the latest STREAM_JOB_MESSAGES_KEPT. */
  async addMessages(jobId: string, messages: MessageRow[]): Promise<void> {
    if (messages.length === 0) return;
    const { messages: table, messageKey: key } = this.tables;
    await this.db
      .insertInto(table)
      .values(messages.map((message) => ({ [key]: jobId, ...message })) as never)
      .execute();
    const ofJob = this.db.dynamic.ref(key);
    await this.db
      .deleteFrom(table)
      .where(ofJob, '=', jobId)
      .where(
        'id',
        '<',
        this.db
          .selectFrom(table)
          .select('id')
          .where(ofJob, '=', jobId)
          .orderBy('id', 'desc')
          .offset(STREAM_JOB_MESSAGES_KEPT - 1)
          .limit(1),
      )
      .execute();
  }

  /** The messages of some jobs, newest first. */
  async messages(jobIds: string[]): Promise<Map<string, MessageRow[]>> {
    const byJob = new Map<string, MessageRow[]>(jobIds.map((id) => [id, []]));
    if (jobIds.length === 0) return byJob;
    const { messages: table, messageKey: key } = this.tables;
    const rows = await this.db
      .selectFrom(table)
      .select((eb) => [eb.ref(key).as('job_id'), 'at', 'level', 'text'])
      .where(this.db.dynamic.ref(key), 'in', jobIds)
      .orderBy('id', 'desc')
      .execute();
    for (const { job_id, ...message } of rows) byJob.get(job_id as string)?.push(message);
    return byJob;
  }

  /** The JSON columns among `values`, as JSON text. */
  private json(values: object): Record<string, string> {
    const json: Record<string, string> = {};
    for (const column of this.tables.json) {
      const value = (values as Record<string, unknown>)[column];
      if (value) json[column] = JSON.stringify(value);
    }
    return json;
  }
}
