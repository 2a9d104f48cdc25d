import { randomBytes, randomUUID } from 'node:crypto';
import type { Account, AccountCreate, AccountUpdate, WhoAmI } from '@streamcloud/contract';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import { hashPassword, type ScryptCost } from '../../lib/password.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import { type AccountRow, type AccountsRepository, DuplicateUsernameError } from './accounts.repository.js';

export interface AccountsServiceDeps {
  accounts: AccountsRepository;
  audit: AuditRepository;
  clock: Clock;
  scryptCost: ScryptCost;
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

export class AccountsService {
  constructor(private readonly deps: AccountsServiceDeps) {}

  async list(): Promise<Account[]> {
    return (await this.deps.accounts.list()).map(toAccount);
  }

  /** ADMIN reads any account; USER only its own. */
  async get(auth: AuthContext, id: string): Promise<Account> {
    if (auth.role !== 'ADMIN' && id !== auth.accountId) throw forbidden();
    const row = await this.deps.accounts.findById(id);
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
    };
  }

  async create(auth: AuthContext | null, input: AccountCreate): Promise<Account> {
    const row = await this.insert(input);
    await this.audit(auth, 'account.create', row.id, { username: row.username, role: row.role });
    return toAccount(row);
  }

  async update(auth: AuthContext, id: string, input: AccountUpdate): Promise<Account> {
    const existing = await this.deps.accounts.findById(id);
    if (!existing) throw notFound('Account');
    if (input.role === 'USER' && existing.role === 'ADMIN') await this.assertNotLastAdmin();
    const row = await this.deps.accounts.update(
      id,
      {
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(input.password !== undefined
          ? { password_hash: await hashPassword(input.password, this.deps.scryptCost) }
          : {}),
      },
      this.deps.clock.now(),
    );
    if (!row) throw notFound('Account');
    await this.audit(auth, 'account.update', id, {
      fields: Object.keys(input).filter((key) => key !== 'password' || input.password !== undefined),
    });
    return toAccount(row);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const existing = await this.deps.accounts.findById(id);
    if (!existing) throw notFound('Account');
    if (id === auth.accountId || id === auth.actingAdminId) throw conflict('You cannot delete your own account');
    if (existing.role === 'ADMIN') await this.assertNotLastAdmin();
    await this.deps.accounts.delete(id);
    await this.audit(auth, 'account.delete', id, { username: existing.username });
  }

  /**
   * Creates the first admin when no account exists yet: from the given credentials, or with a
   * generated password that the caller prints once. Answers null when accounts already exist.
   */
  async ensureFirstAdmin(
    username: string | undefined,
    password: string | undefined,
  ): Promise<{ username: string; generatedPassword: string | null } | null> {
    if ((await this.deps.accounts.count()) > 0) return null;
    const generatedPassword = password ? null : randomBytes(12).toString('base64url');
    const row = await this.insert({
      username: username ?? 'admin',
      password: password ?? (generatedPassword as string),
      role: 'ADMIN',
      email: undefined,
    });
    await this.audit(null, 'account.create', row.id, { username: row.username, role: row.role, firstAdmin: true });
    return { username: row.username, generatedPassword };
  }

  private async insert(input: AccountCreate): Promise<AccountRow> {
    try {
      return await this.deps.accounts.insert({
        id: randomUUID(),
        username: input.username,
        email: input.email ?? null,
        role: input.role,
        password_hash: await hashPassword(input.password, this.deps.scryptCost),
      });
    } catch (error) {
      if (error instanceof DuplicateUsernameError) throw conflict('Username already exists', 'USERNAME_TAKEN');
      throw error;
    }
  }

  private async assertNotLastAdmin(): Promise<void> {
    if ((await this.deps.accounts.countAdmins()) <= 1)
      throw conflict('The last admin cannot be removed or demoted', 'LAST_ADMIN');
  }

  private audit(auth: AuthContext | null, action: string, targetId: string, details: Record<string, unknown>) {
    return this.deps.audit.record(
      {
        actorId: auth?.accountId ?? null,
        actingAdminId: auth?.actingAdminId ?? null,
        action,
        targetType: 'account',
        targetId,
        details,
      },
      this.deps.clock.now(),
    );
  }

  /** For a caller authentication did not read the account of. */
  private async accountOf(id: string): Promise<NonNullable<AuthContext['account']>> {
    const row = await this.deps.accounts.findById(id);
    if (!row) throw notFound('Account');
    return { email: row.email, createdAt: row.created_at };
  }
}
