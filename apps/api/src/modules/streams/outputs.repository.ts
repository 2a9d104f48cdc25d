import type { Db } from '../../db/database.js';
import type { OutputSessionsTable, OutputsTable } from '../../db/schema.js';

export type OutputRow = Omit<OutputsTable, 'created_at'> & { created_at: Date };
export type SessionRow = Omit<OutputSessionsTable, 'output_id'>;

export class OutputsRepository {
  constructor(private readonly db: Db) {}

  async insert(output: Omit<OutputRow, 'created_at'>): Promise<OutputRow> {
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

  async replaceSessions(outputId: string, sessions: SessionRow[]): Promise<void> {
    await this.db.deleteFrom('output_sessions').where('output_id', '=', outputId).execute();
    if (sessions.length > 0) {
      await this.db
        .insertInto('output_sessions')
        .values(sessions.map((session) => ({ ...session, output_id: outputId })))
        .execute();
    }
  }
}
