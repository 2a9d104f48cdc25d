import type { Db } from '../../db/database.js';

export interface TwoFactorRow {
  account_id: string;
  secret_sealed: string;
  enabled_at: Date | null;
  last_used_step: number | null;
}

/** Accounts' TOTP secrets, recovery codes and sign-in tickets, and the sign-in security settings. */
export class TwoFactorRepository {
  constructor(private readonly db: Db) {}

  async find(accountId: string): Promise<TwoFactorRow | null> {
    const row = await this.db
      .selectFrom('account_two_factor')
      .select(['account_id', 'secret_sealed', 'enabled_at', 'last_used_step'])
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Whether the account has two-factor sign-in enabled. */
  async isEnabled(accountId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('account_two_factor')
      .select('account_id')
      .where('account_id', '=', accountId)
      .where('enabled_at', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A new pending enrolment, replacing a pending one; false when two-factor sign-in is enabled already. */
  async startEnrolment(accountId: string, secretSealed: string, now: Date): Promise<boolean> {
    const row = await this.db
      .insertInto('account_two_factor')
      .values({ account_id: accountId, secret_sealed: secretSealed, created_at: now })
      .onConflict((oc) =>
        oc
          .column('account_id')
          .doUpdateSet({ secret_sealed: secretSealed, last_used_step: null })
          .where('account_two_factor.enabled_at', 'is', null),
      )
      .returning('account_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Enables a pending enrolment sealed as `secretSealed` (so not one replaced meanwhile); false when another request did. */
  async enable(accountId: string, secretSealed: string, step: number, now: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('account_two_factor')
      .set({ enabled_at: now, last_used_step: step })
      .where('account_id', '=', accountId)
      .where('secret_sealed', '=', secretSealed)
      .where('enabled_at', 'is', null)
      .returning('account_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Takes a time step for the account when it is newer than the last one used: only one request wins it. */
  async useStep(accountId: string, step: number): Promise<boolean> {
    const row = await this.db
      .updateTable('account_two_factor')
      .set({ last_used_step: step })
      .where('account_id', '=', accountId)
      .where('enabled_at', 'is not', null)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .returning('account_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Removes the account's secret and recovery codes; false when it had none. */
  async remove(accountId: string): Promise<boolean> {
    await this.db.deleteFrom('two_factor_recovery_codes').where('account_id', '=', accountId).execute();
    await this.db.deleteFrom('two_factor_tickets').where('account_id', '=', accountId).execute();
    const row = await this.db
      .deleteFrom('account_two_factor')
      .where('account_id', '=', accountId)
      .returning('enabled_at')
      .executeTakeFirst();
    return row?.enabled_at != null;
  }

  async insertRecoveryCodes(accountId: string, codeHashes: string[]): Promise<void> {
    await this.db.deleteFrom('two_factor_recovery_codes').where('account_id', '=', accountId).execute();
    await this.db
      .insertInto('two_factor_recovery_codes')
      .values(codeHashes.map((code_hash) => ({ account_id: accountId, code_hash })))
      .execute();
  }

  /** Marks a recovery code used when it is the account's and unused: only one request wins it. */
  async useRecoveryCode(accountId: string, codeHash: string, now: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('two_factor_recovery_codes')
      .set({ used_at: now })
      .where('account_id', '=', accountId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .returning('account_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async recoveryCodesLeft(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('two_factor_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('account_id', '=', accountId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Stores a sign-in ticket's hash, and drops the expired ones. */
  async insertTicket(ticketHash: string, accountId: string, expiresAt: Date, now: Date): Promise<void> {
    await this.db.deleteFrom('two_factor_tickets').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('two_factor_tickets')
      .values({ ticket_hash: ticketHash, account_id: accountId, expires_at: expiresAt })
      .execute();
  }

  /** The account of a ticket not expired, or null. */
  async ticketAccount(ticketHash: string, now: Date): Promise<string | null> {
    const row = await this.db
      .selectFrom('two_factor_tickets')
      .select('account_id')
      .where('ticket_hash', '=', ticketHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.account_id ?? null;
  }

  /** Uses a ticket up: true for the one request that deleted it. */
  async consumeTicket(ticketHash: string): Promise<boolean> {
    const row = await this.db
      .deleteFrom('two_factor_tickets')
      .where('ticket_hash', '=', ticketHash)
      .returning('account_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async requireAdminTwoFactor(): Promise<boolean> {
    const row = await this.db.selectFrom('security_settings').select('require_admin_two_factor').executeTakeFirst();
    return row?.require_admin_two_factor ?? false;
  }

  /** An UPDATE (of the one row, made if missing), which drops the cached callers (session-cache.ts). */
  async setRequireAdminTwoFactor(value: boolean, now: Date): Promise<void> {
    await this.db
      .insertInto('security_settings')
      .values({ require_admin_two_factor: false, updated_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await this.db.updateTable('security_settings').set({ require_admin_two_factor: value, updated_at: now }).execute();
  }
}
