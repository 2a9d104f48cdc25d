import type { Db } from '../../db/database.js';

export class LoginThrottleRepository {
  constructor(private readonly db: Db) {}

  /** Failures recorded for a key since a time, and the oldest of them. */
  async failuresSince(key: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const row = await this.db
      .selectFrom('login_failures')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('at').as('oldest')])
      .where('key', '=', key)
      .where('at', '>', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), oldest: row.oldest ? new Date(row.oldest) : null };
  }

  async record(keys: string[], at: Date): Promise<void> {
    await this.db
      .insertInto('login_failures')
      .values(keys.map((key) => ({ key, at })))
      .execute();
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('key', '=', key).execute();
  }

  async deleteBefore(before: Date): Promise<void> {
    await this.db.deleteFrom('login_failures').where('at', '<', before).execute();
  }
}
