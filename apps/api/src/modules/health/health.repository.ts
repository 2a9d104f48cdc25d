import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export class HealthRepository {
  constructor(private readonly db: Db) {}

  /** Resolves when the database answers a query; throws otherwise. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }
}
