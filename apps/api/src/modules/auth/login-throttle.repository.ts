import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export class LoginThrottleRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inside a transaction: waits until no other transaction holds any of these keys, and holds them until
   * this one ends (advisory locks, in a fixed order so two callers never wait on each other).
   */
  async lock(keys: string[]): Promise<void> {
    for (const key of [...new Set(keys)].sort()) {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`login:${key}`}, 0))`.execute(this.db);
    }
  }

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

  /** Records one failure per key; answers their ids. */
  async record(keys: string[], at: Date): Promise<number[]> {
    const rows = await this.db
      .insertInto('login_failures')
      .values(keys.map((key) => ({ key, at })))
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Takes back failures recorded before the outcome was known. */
  async forget(ids: number[]): Promise<void> {
    if (ids.length > 0) await this.db.deleteFrom('login_failures').where('id', 'in', ids).execute();
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('key', '=', key).execute();
  }

  async deleteBefore(before: Date): Promise<void> {
    await this.db.deleteFrom('login_failures').where('at', '<', before).execute();
  }

  async isTrusted(accountId: string, address: string, since: Date): Promise<boolean> {
    const row = await this.db
      .selectFrom('login_trusted_addresses')
      .select('account_id')
      .where('account_id', '=', accountId)
      .where('address', '=', address)
      .where('last_success_at', '>', since)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Remembers a successful sign-in from an address, and forgets the account's addresses unused since `before`. */
  async trust(accountId: string, address: string, at: Date, before: Date): Promise<void> {
    await this.db
      .insertInto('login_trusted_addresses')
      .values({ account_id: accountId, address, last_success_at: at })
      .onConflict((conflict) => conflict.columns(['account_id', 'address']).doUpdateSet({ last_success_at: at }))
      .execute();
    await this.db
      .deleteFrom('login_trusted_addresses')
      .where('account_id', '=', accountId)
      .where('last_success_at', '<', before)
      .execute();
  }
}
