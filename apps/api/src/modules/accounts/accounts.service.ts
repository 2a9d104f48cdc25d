import { randomBytes, randomUUID } from 'node:crypto';
import type { Account, AccountCreate, AccountUpdate, WhoAmI } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import type { HashingGate } from '../../lib/hashing-gate.js';
import { hashPassword, type ScryptCost } from '../../lib/password.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { TwoFactorService } from '../auth/index.js';
import { type AccountRow, type AccountsRepository, DuplicateUsernameError } from './accounts.repository.js';

/** Its accounts, the audit log, and the auth module's `sessionRevocation` port. */
type AccountsScope = Scope<'accounts' | 'sessionRevocation' | 'audit'>;

export interface AccountsServiceDeps {
  uow: AccountsScope;
  clock: Clock;
  scryptCost: ScryptCost;
  /** Bounds the password hashing done at once (shared with sign-in). */
  hashing: HashingGate;
  /** Whether the settings send an ADMIN to enrol two-factor sign-in (whoami says so). */
  twoFactor: Pick<TwoFactorService, 'enrolmentRequired'>;
}

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    createdAt: row.created_at.toISOString(),
  };
}

/** What `ensureAdmin` did at start, for the server to say. */
export type AdminRecovery =
  | { action: 'created-first' | 'created' | 'promoted'; username: string; generatedPassword: string | null }
  | { action: 'none-left' };

export class AccountsService {
  private readonly audit: AuditTrail;

  constructor(private readonly deps: AccountsServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'account');
  }

  /** Whether the account exists (for modules that make something for another account). */
  async exists(id: string): Promise<boolean> {
    return (await this.deps.uow.accounts.findById(id)) !== null;
  }

  async list(): Promise<Account[]> {
    return (await this.deps.uow.accounts.list()).map(toAccount);
  }

  /** ADMIN reads any account; USER only its own. */
  async get(auth: AuthContext, id: string): Promise<Account> {
    if (auth.role !== 'ADMIN' && id !== auth.accountId) throw forbidden();
    const row = await this.deps.uow.accounts.findById(id);
    if (!row) throw notFound('Account');
    return toAccount(row);
  }

  /** The caller's account, as authentication read it with the session: no query of its own then. */
  async whoami(auth: AuthContext): Promise<WhoAmI> {
    const account = auth.account ?? (await this.accountOf(auth.accountId));
    return {
      id: auth.accountId,
      username: auth.username,
      email: account.email,
      role: auth.role,
      createdAt: account.createdAt.toISOString(),
      impersonatedBy:
        auth.actingAdminId && auth.actingAdminUsername
          ? { id: auth.actingAdminId, username: auth.actingAdminUsername }
          : null,
      twoFactorEnrolmentRequired:
        account.twoFactorEnrolmentRequired ?? (await this.deps.twoFactor.enrolmentRequired(auth)),
    };
  }

  async create(auth: AuthContext | null, body: AccountCreate): Promise<Account> {
    const row = await this.insert(body);
    await this.audit.record(auth, 'account.create', row.id, { username: row.username, role: row.role });
    return toAccount(row);
  }

  /**
   * A change of role revokes for good the account's sessions (the caller's own too), the impersonations it
   * started and its API keys, so changing the role back restores none of them; a new password revokes its
   * other sessions, keeping the caller's own when it changes its own password. An API key changes no password.
   */
  async update(auth: AuthContext, id: string, body: AccountUpdate): Promise<Account> {
    if (body.password !== undefined && auth.apiKey) throw forbidden('API keys cannot change passwords');
    // Hashing is slow: done before the transaction, so no lock waits for it.
    const passwordHash = body.password !== undefined ? await this.hash(body.password) : undefined;
    const now = this.deps.clock.now();
    const row = await this.deps.uow.transaction(async ({ accounts, sessionRevocation }) => {
      if (!(await accounts.findById(id))) throw notFound('Account');
      if (body.role === 'USER') await this.assertNotLastAdmin(accounts, id);
      const row = await accounts.update(
        id,
        {
          ...(body.email !== undefined ? { email: body.email } : {}),
          ...(body.role !== undefined ? { role: body.role } : {}),
          ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
        },
        now,
      );
      if (!row) throw notFound('Account');
      // After the update (its row lock makes a key being made wait for this transaction, api-keys.service.ts).
      if (row.role !== row.previous_role) {
        await sessionRevocation.revokeRoleCredentials(id, now);
      } else if (passwordHash !== undefined) {
        await sessionRevocation.revokeAccount(id, now, id === auth.accountId ? auth.sessionId : undefined);
      }
      return row;
    });
    await this.audit.record(auth, 'account.update', id, {
      fields: Object.keys(body).filter((key) => key !== 'password' || body.password !== undefined),
    });
    return toAccount(row);
  }

  /** Another account than one's own, not the last admin; of concurrent deletes one answers 204, the others 404. */
  async delete(auth: AuthContext, id: string): Promise<void> {
    const existing = await this.deps.uow.transaction(async ({ accounts }) => {
      const existing = await accounts.findById(id);
      if (!existing) throw notFound('Account');
      if (id === auth.accountId || id === auth.actingAdminId) throw conflict('You cannot delete your own account');
      await this.assertNotLastAdmin(accounts, id);
      if (!(await accounts.delete(id))) throw notFound('Account');
      return existing;
    });
    await this.audit.record(auth, 'account.delete', id, { username: existing.username });
  }

  /**
   * Makes sure an admin exists, at start. With no account at all: the first admin, from the given
   * credentials or with a generated password that the caller prints once. With accounts but no ADMIN left
   * (the operator's way back without SQL): `username` is promoted to ADMIN — its password replaced when
   * one is given, its sessions revoked — or created (with the given or a generated password); without a
   * username it answers `noAdmin` so the caller says how to restore one. Answers null when an admin exists.
   */
  async ensureAdmin(username: string | undefined, password: string | undefined): Promise<AdminRecovery | null> {
    const accounts = await this.deps.uow.accounts.count();
    if (accounts > 0 && (await this.deps.uow.accounts.countAdmins()) > 0) return null;
    if (accounts > 0 && username === undefined) return { action: 'none-left' };
    const existing = accounts > 0 && username ? await this.deps.uow.accounts.findByUsername(username) : null;
    if (existing) {
      const now = this.deps.clock.now();
      const passwordHash = password ? await this.hash(password) : undefined;
      await this.deps.uow.transaction(async ({ accounts: repository, sessionRevocation }) => {
        await repository.update(
          existing.id,
          { role: 'ADMIN', ...(passwordHash ? { password_hash: passwordHash } : {}) },
          now,
        );
        await sessionRevocation.revokeRoleCredentials(existing.id, now);
      });
      await this.audit.record(null, 'account.update', existing.id, { role: 'ADMIN', recoveredAdmin: true });
      return { action: 'promoted', username: existing.username, generatedPassword: null };
    }
    const generatedPassword = password ? null : randomBytes(12).toString('base64url');
    const row = await this.insert({
      username: username ?? 'admin',
      password: password ?? (generatedPassword as string),
      role: 'ADMIN',
      email: undefined,
    });
    await this.audit.record(null, 'account.create', row.id, {
      username: row.username,
      role: row.role,
      ...(accounts === 0 ? { firstAdmin: true } : { recoveredAdmin: true }),
    });
    return { action: accounts === 0 ? 'created-first' : 'created', username: row.username, generatedPassword };
  }

  private hash(password: string): Promise<string> {
    return this.deps.hashing.run(() => hashPassword(password, this.deps.scryptCost));
  }

  private async insert(body: AccountCreate): Promise<AccountRow> {
    try {
      return await this.deps.uow.accounts.insert({
        id: randomUUID(),
        username: body.username,
        email: body.email ?? null,
        role: body.role,
        password_hash: await this.hash(body.password),
      });
    } catch (error) {
      if (error instanceof DuplicateUsernameError) throw conflict('Username already exists', 'USERNAME_TAKEN');
      throw error;
    }
  }

  /** Inside a transaction: refuses to remove `id` from the admins when it is the last one (locks them all). */
  private async assertNotLastAdmin(accounts: AccountsRepository, id: string): Promise<void> {
    const admins = await accounts.lockAdmins();
    if (admins.includes(id) && admins.length <= 1)
      throw conflict('The last admin cannot be removed or demoted', 'LAST_ADMIN');
  }

  /** For a caller authentication did not read the account of. */
  private async accountOf(id: string): Promise<NonNullable<AuthContext['account']>> {
    const row = await this.deps.uow.accounts.findById(id);
    if (!row) throw notFound('Account');
    return { email: row.email, createdAt: row.created_at };
  }
}
