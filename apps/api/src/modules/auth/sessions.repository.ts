import type { Db } from '../../db/database.js';
import type { SessionsTable } from '../../db/schema.js';
import type { AuthContext } from '../../lib/auth-context.js';

export type NewSession = Omit<SessionsTable, 'created_at' | 'revoked_at'>;

declare module '../../lib/auth-context.js' {
  interface AuthContext {
    /**
     * The rest of the account, read by authentication's session lookup with the fields above (so on
     * every request, never older than it): whoami answers from it without a query of its own. Absent
     * on a context made otherwise.
     */
    account?: {
      email: string | null;
      createdAt: Date;
      /** An ADMIN (not impersonated) the security settings send to enrol two-factor sign-in. */
      twoFactorEnrolmentRequired?: boolean;
    };
  }
}

/**
 * The account's columns a caller is read with (`accounts as a`), by the session and the API key lookups
 * alike: the caller's username and role, and `account` (email, created_at).
 */
export const CALLER_ACCOUNT_COLUMNS = ['a.username', 'a.role', 'a.email', 'a.created_at'] as const;

export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async insert(session: NewSession): Promise<void> {
    await this.db.insertInto('sessions').values(session).execute();
  }

  /**
   * The caller behind a session with its account, or null when the session is revoked or expired, its
   * account deleted or its role changed since issue, or (while impersonating) the admin is no longer an
   * admin or its own session ended; with when it expires (the admin's own session's end while impersonating,
   * if sooner).
   */
  async findActive(
    sessionId: string,
    accountId: string,
    now: Date,
  ): Promise<{ caller: AuthContext; expiresAt: Date } | null> {
    const row = await this.db
      .selectFrom('sessions as s')
      .innerJoin('accounts as a', 'a.id', 's.account_id')
      .leftJoin('accounts as admin', 'admin.id', 's.acting_admin_id')
      .leftJoin('sessions as parent', 'parent.id', 's.parent_session_id')
      // Read with the session so whoami needs no query of its own; their changes invalidate it (migration 0022).
      .leftJoin('security_settings as settings', (join) => join.onTrue())
      .leftJoin('account_two_factor as tf', (join) =>
        join.onRef('tf.account_id', '=', 'a.id').on('tf.enabled_at', 'is not', null),
      )
      .select((eb) =>
        eb
          .and([
            eb('a.role', '=', 'ADMIN'),
            eb('s.parent_session_id', 'is', null),
            eb('settings.require_admin_two_factor', '=', true),
            eb('tf.account_id', 'is', null),
          ])
          .as('twoFactorEnrolmentRequired'),
      )
      .select([
        's.id as sessionId',
        's.account_id as accountId',
        ...CALLER_ACCOUNT_COLUMNS,
        's.acting_admin_id as actingAdminId',
        'admin.username as actingAdminUsername',
        's.parent_session_id as parentSessionId',
        's.expires_at as expiresAt',
        'parent.expires_at as parentExpiresAt',
      ])
      .where('s.id', '=', sessionId)
      .where('s.account_id', '=', accountId)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', now)
      .whereRef('a.role', '=', 's.role_at_issue')
      .where((eb) =>
        eb.or([
          eb('s.parent_session_id', 'is', null),
          eb.and([
            eb('parent.revoked_at', 'is', null),
            eb('parent.expires_at', '>', now),
            eb('admin.role', '=', 'ADMIN'),
            eb('parent.role_at_issue', '=', 'ADMIN'),
          ]),
        ]),
      )
      .executeTakeFirst();
    if (!row) return null;
    const { email, created_at, expiresAt, parentExpiresAt, twoFactorEnrolmentRequired, ...caller } = row;
    return {
      caller: {
        ...caller,
        account: { email, createdAt: created_at, twoFactorEnrolmentRequired: twoFactorEnrolmentRequired === true },
      },
      expiresAt: parentExpiresAt && parentExpiresAt < expiresAt ? parentExpiresAt : expiresAt,
    };
  }

  async revoke(sessionIds: string[], now: Date): Promise<void> {
    if (sessionIds.length === 0) return;
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('id', 'in', sessionIds)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every session of an account (those it is impersonated in too), but `keep` when given. */
  async revokeAccount(accountId: string, now: Date, keep?: string): Promise<void> {
    let query = this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null);
    if (keep) query = query.where('id', '<>', keep);
    await query.execute();
  }

  /**
   * Revokes every session of an account and every impersonation it started as an admin (on a change of its
   * role): revoked for good, so a later change back brings none of them back.
   */
  async revokeAccountAndImpersonations(accountId: string, now: Date): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where((eb) => eb.or([eb('account_id', '=', accountId), eb('acting_admin_id', '=', accountId)]))
      .where('revoked_at', 'is', null)
      .execute();
  }

  async deleteExpired(before: Date): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<', before).execute();
  }
}
