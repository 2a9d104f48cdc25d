import { TOKEN_SESSIONS_MAX } from '@streamcloud/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { nodeSilentSince } from '../nodes/node-reports.repository.js';
import { rotationChanges, type TokenRotation } from './streams.repository.js';
import type { OutputSessionsTable, OutputsTable, TokenRotationColumns } from './streams.table.js';

export type OutputRow = Omit<OutputsTable, 'created_at'> & { created_at: Date };
export type SessionRow = Omit<OutputSessionsTable, 'output_id'>;

/** An output the assignment job places again, with its stream's owner and node, and why its node is unfit. */
export type MisplacedOutput = OutputRow & {
  owner_id: string;
  stream_node_id: string;
  /** Its edge node's name (null: on the ingest node for lack of an edge), and what is wrong with it. */
  node_name: string | null;
  unfit: string;
};

export class OutputsRepository {
  constructor(private readonly db: Db) {}

  async insert(output: Omit<OutputRow, 'created_at' | keyof TokenRotationColumns>): Promise<OutputRow> {
    return this.db.insertInto('outputs').values(output).returningAll().executeTakeFirstOrThrow();
  }

  async findById(id: string): Promise<OutputRow | null> {
    return (await this.db.selectFrom('outputs').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async list(streamId: string, offset: number, limit: number) {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('outputs')
        .selectAll()
        .where('input_id', '=', streamId)
        .orderBy('created_at')
        .orderBy('id')
        .offset(offset)
        .limit(limit)
        .execute(),
      this.db
        .selectFrom('outputs')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('input_id', '=', streamId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.count) };
  }

  /** The outputs of some streams, each stream's in creation order (the order of `list`). */
  async ofStreams(streamIds: string[]): Promise<Map<string, OutputRow[]>> {
    const outputs = new Map<string, OutputRow[]>(streamIds.map((id) => [id, []]));
    if (streamIds.length === 0) return outputs;
    const rows = await this.db
      .selectFrom('outputs')
      .selectAll()
      .where('input_id', 'in', streamIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const row of rows) outputs.get(row.input_id)?.push(row);
    return outputs;
  }

  /** A stream's first output (in the list order) of this format and access, if any: one indexed read. */
  async firstOfStream(streamId: string, format: string, access: OutputRow['access']): Promise<OutputRow | undefined> {
    return this.db
      .selectFrom('outputs')
      .selectAll()
      .where('input_id', '=', streamId)
      .where('format', '=', format)
      .where('access', '=', access)
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * The sessions of capped stream-wide playback tokens on these streams' outputs, with the output's edge (null: it is
   * served by the stream's ingest node) — what each node serving the stream counts besides its own. Bounded.
   */
  tokenSessionsOf(
    streamIds: string[],
  ): Promise<{ input_id: string; node_id: string | null; token_id: string; session_id: string; started_at: Date }[]> {
    if (streamIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('output_sessions as s')
      .innerJoin('outputs as o', 'o.id', 's.output_id')
      .select(['o.input_id', 'o.node_id', 's.token_id', 's.session_id', 's.started_at'])
      .where('o.input_id', 'in', streamIds)
      .where('s.token_id', 'is not', null)
      .orderBy('s.started_at')
      .limit(TOKEN_SESSIONS_MAX)
      .$narrowType<{ token_id: string }>()
      .execute();
  }

  async sessionsOf(outputIds: string[]): Promise<Map<string, SessionRow[]>> {
    const sessions = new Map<string, SessionRow[]>(outputIds.map((id) => [id, []]));
    if (outputIds.length === 0) return sessions;
    const rows = await this.db
      .selectFrom('output_sessions')
      .selectAll()
      .where('output_id', 'in', outputIds)
      .orderBy('started_at')
      .execute();
    for (const { output_id, ...session } of rows) sessions.get(output_id)?.push(session);
    return sessions;
  }

  /**
   * Outputs of streams on a node whose serving node is unfit: an edge that is disabled, closed or silent since
   * `since`; and, when `edgesExist`, those on the ingest node for lack of an edge whose owner may now use an
   * Outgoing node (of its own groups or the cloud's).
   */
  async misplaced(since: Date, edgesExist: boolean, limit: number): Promise<MisplacedOutput[]> {
    return (await this.db
      .selectFrom('outputs as o')
      .innerJoin('inputs as i', 'i.id', 'o.input_id')
      .leftJoin('nodes as n', 'n.id', 'o.node_id')
      .selectAll('o')
      .select(['i.owner_id', 'i.node_id as stream_node_id', 'n.name as node_name'])
      .select(
        sql<string>`case when n.id is null then '' when not n.enabled then 'is disabled' when not n.opened then 'is closed' when n.draining_since is not null then 'is being drained' else 'stopped reporting' end`.as(
          'unfit',
        ),
      )
      .where('i.node_id', 'is not', null)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('o.node_id', 'is not', null),
            eb.or([
              eb('n.enabled', '=', false),
              eb('n.opened', '=', false),
              eb('n.draining_since', 'is not', null),
              nodeSilentSince('n', since),
            ]),
          ]),
          ...(edgesExist
            ? [
                eb.and([
                  eb('o.node_id', 'is', null),
                  eb('o.ingest_chosen', '=', false),
                  sql<boolean>`exists (select 1 from node_group_resources r join node_groups g on g.id = r.group_id
                    join nodes e on e.id = r.node_id
                    where g.assignment = 'Outgoing' and e.enabled and e.opened and e.draining_since is null
                      and (g.owner_id = i.owner_id or g.owner_id is null)
                      and not ${nodeSilentSince('e', since)})`,
                ]),
              ]
            : []),
        ]),
      )
      .orderBy('o.created_at')
      .limit(limit)
      .execute()) as MisplacedOutput[];
  }

  /** Moves the output to `to` (null: its stream's ingest node) if it is still on `from`; answers whether it did. */
  async move(id: string, from: string | null, to: string | null, ingestChosen: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('outputs')
      .set({ node_id: to, ingest_chosen: ingestChosen })
      .where('id', '=', id)
      .where((eb) => (from === null ? eb('node_id', 'is', null) : eb('node_id', '=', from)))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Sets an output's access policy, viewer token and HLS latency; null when the output is gone. */
  async setPolicy(
    id: string,
    policy: Pick<OutputRow, 'access' | 'access_token' | 'hls_latency' | 'dvr_window_minutes'>,
  ): Promise<OutputRow | null> {
    return (
      (await this.db.updateTable('outputs').set(policy).where('id', '=', id).returningAll().executeTakeFirst()) ?? null
    );
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('outputs').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Forgets the sessions and records when, so the node serving the output disconnects them. */
  async clearSessions(id: string, at: Date): Promise<void> {
    await this.db.deleteFrom('output_sessions').where('output_id', '=', id).execute();
    await this.db
      .updateTable('outputs')
      .set({ sessions_cleared_at: at, preview_sessions: 0 })
      .where('id', '=', id)
      .execute();
  }

  /** As `StreamsRepository.rotateAccessToken`, for an output's viewer token: false when it has none (public). */
  async rotateAccessToken(id: string, rotation: TokenRotation): Promise<boolean> {
    const result = await this.db
      .updateTable('outputs')
      .set(rotationChanges(rotation))
      .where('id', '=', id)
      .where('access_token', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The output `id` when it belongs to the input `inputId` (reports name outputs by id). */
  async findOfInput(inputId: string, id: string): Promise<OutputRow | null> {
    return (
      (await this.db
        .selectFrom('outputs')
        .selectAll()
        .where('id', '=', id)
        .where('input_id', '=', inputId)
        .executeTakeFirst()) ?? null
    );
  }

  async setPreviewSessions(outputId: string, count: number): Promise<void> {
    await this.db.updateTable('outputs').set({ preview_sessions: count }).where('id', '=', outputId).execute();
  }
}
