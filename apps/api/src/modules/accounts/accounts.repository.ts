import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AccountsTable } from '../../db/schema.js';

export type AccountRow = Omit<AccountsTable, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };
export type NewAccount = Pick<AccountsTable, 'id' | 'username' | 'email' | 'role' | 'password_hash'>;

const UNIQUE_VIOLATION = '23505';

export class DuplicateUsernameError extends Error {}

/**
 * The accounts module's port for sign-in (the unit of work hands AccountsRepository out as `credentials`):
 * an account with its password hash, by username or id.
 */
export type AccountCredentials = Pick<AccountsRepository, 'findByUsername' | 'findById'>;

export class AccountsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Locks every ADMIN row until the transaction ends and answers their ids: two transactions that each
   * remove an admin take turns, and the second one counts what the first left (PostgreSQL re-reads a
   * locked row changed meanwhile), so the last admin cannot be removed by two requests at once.
   */
  async lockAdmins(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'ADMIN')
      .orderBy('id')
      .forUpdate()
      .execute();
    return rows.map((row) => row.id);
  }

  list(): Promise<AccountRow[]> {
    return this.db.selectFrom('accounts').selectAll().orderBy(sql`lower(username)`).execute();
  }

  async findById(id: string): Promise<AccountRow | null> {
    return (await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async findByUsername(username: string): Promise<AccountRow | null> {
    return (
      (await this.db
        .selectFrom('accounts')
        .selectAll()
        .where(sql`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst()) ?? null
    );
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async countAdmins(): Promise<number> {
    const row = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('role', '=', 'ADMIN')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async insert(account: NewAccount): Promise<AccountRow> {
    try {
      return await this.db.insertInto('accounts').values(account).returningAll().executeTakeFirstOrThrow();
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new DuplicateUsernameError();
      throw error;
    }
  }

  /**
   * Changes an account; answers the changed row with the role it had just before (read under the update's
   * row lock, so of concurrent changes each sees the role the one before it left), or null when it is gone.
   */
  async update(
    id: string,
    changes: Partial<Pick<AccountsTable, 'email' | 'role' | 'password_hash'>>,
    now: Date,
  ): Promise<(AccountRow & { previous_role: AccountRow['role'] }) | null> {
    return (
      (await this.db
        .updateTable('accounts')
        .from((eb) =>
          eb
            .selectFrom('accounts as before')
            .select(['before.id as before_id', 'before.role as previous_role'])
            .where('before.id', '=', id)
            .forUpdate()
            .as('before'),
        )
        .set({ ...changes, updated_at: now })
        .whereRef('accounts.id', '=', 'before.before_id')
        .returningAll('accounts')
        .returning('before.previous_role')
        .executeTakeFirst()) ?? null
    );
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('accounts').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
