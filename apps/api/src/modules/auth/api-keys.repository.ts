import type { Db } from '../../db/database.js';
import type { ApiKeysTable } from '../../db/schema.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { CALLER_ACCOUNT_COLUMNS } from './sessions.repository.js';

export type NewApiKey = Omit<ApiKeysTable, 'created_at' | 'revoked_at'>;

export interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  scope: 'read' | 'write';
  prefix: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  last_used_address: string | null;
}

/** A key's own columns in `ApiKeyRow` (no column of `api_key_uses` has these names: unqualified in its join). */
const KEY_COLUMNS = ['id', 'account_id', 'name', 'scope', 'prefix', 'created_at', 'expires_at'] as const;

export class ApiKeysRepository {
  constructor(private readonly db: Db) {}

  async insert(key: NewApiKey): Promise<ApiKeyRow> {
    const row = await this.db.insertInto('api_keys').values(key).returning(KEY_COLUMNS).executeTakeFirstOrThrow();
    return { ...row, last_used_at: null, last_used_address: null };
  }

  /**
   * Inside a transaction: the account's role, its row locked against a change of role until the transaction
   * ends (so a key made meanwhile is either revoked by that change or sees the new role); null when it is gone.
   */
  async lockAccountRole(accountId: string): Promise<'ADMIN' | 'USER' | null> {
    const row = await this.db
      .selectFrom('accounts')
      .select('role')
      .where('id', '=', accountId)
      .forShare()
      .executeTakeFirst();
    return row?.role ?? null;
  }

  /** An account's keys not revoked (expired ones too, so their owner sees why they stopped), newest first. */
  listByAccount(accountId: string): Promise<ApiKeyRow[]> {
    return this.db
      .selectFrom('api_keys as k')
      .leftJoin('api_key_uses as u', 'u.key_id', 'k.id')
      .select([...KEY_COLUMNS, 'u.at as last_used_at', 'u.address as last_used_address'])
      .where('k.account_id', '=', accountId)
      .where('k.revoked_at', 'is', null)
      .orderBy('k.created_at', 'desc')
      .orderBy('k.id')
      .execute();
  }

  /** Revokes a key; answers whether this call did (of concurrent calls, one does). */
  async revoke(id: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Revokes every key of an account (on a change of its role). */
  async revokeAccount(accountId: string, now: Date): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * The caller a key stands for, read with its account on every lookup (so a deleted or demoted account
   * counts at once), or null when no key has this hash, it is revoked or expired, or its account's role is no
   * longer the one it was made with; with when it expires.
   */
  async findActive(keyHash: string, now: Date): Promise<{ caller: AuthContext; expiresAt: Date | null } | null> {
    const row = await this.db
      .selectFrom('api_keys as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .select(['k.id', 'k.scope', 'k.expires_at', 'a.id as accountId', ...CALLER_ACCOUNT_COLUMNS])
      .where('k.key_hash', '=', keyHash)
      .where('k.revoked_at', 'is', null)
      .whereRef('a.role', '=', 'k.role_at_issue')
      .where((eb) => eb.or([eb('k.expires_at', 'is', null), eb('k.expires_at', '>', now)]))
      .executeTakeFirst();
    if (!row) return null;
    return {
      caller: {
        accountId: row.accountId,
        username: row.username,
        role: row.role,
        // The key's id stands for the session: invalidations name it ('s:<id>', migration 0019).
        sessionId: row.id,
        actingAdminId: null,
        actingAdminUsername: null,
        parentSessionId: null,
        account: { email: row.email, createdAt: row.created_at },
        apiKey: { id: row.id, scope: row.scope },
      },
      expiresAt: row.expires_at,
    };
  }

  async recordUse(keyId: string, at: Date, address: string | null): Promise<void> {
    await this.db
      .insertInto('api_key_uses')
      .values({ key_id: keyId, at, address })
      .onConflict((oc) => oc.column('key_id').doUpdateSet({ at, address }))
      .execute();
  }
}
