import { randomUUID } from 'node:crypto';
import type { Role } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { isImpersonating } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, conflict, forbidden, notFound, tooManyRequests, unauthorized } from '../../lib/errors.js';
import type { HashingGate } from '../../lib/hashing-gate.js';
import { hashPassword, type ScryptCost, verifyPassword } from '../../lib/password.js';
import type { TokenSigner } from '../../lib/tokens.js';
import { type ApiKeysService, isApiKey } from './api-keys.service.js';
import { SessionCache } from './session-cache.js';

export interface LoginThrottle {
  windowSeconds: number;
  /** Failures per username from addresses it has not signed in from (and per username and address). */
  maxFailuresPerUsername: number;
  maxFailuresPerAddress: number;
  /** How long a successful sign-in makes its address trusted for the account. */
  trustedAddressSeconds: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottle = {
  windowSeconds: 15 * 60,
  maxFailuresPerUsername: 5,
  maxFailuresPerAddress: 20,
  trustedAddressSeconds: 30 * 24 * 3600,
};

export const SESSION_TTL_SECONDS = 12 * 60 * 60;
export const IMPERSONATION_TTL_SECONDS = 60 * 60;

const INVALID_CREDENTIALS = 'Invalid username or password';
const TOO_MANY_ATTEMPTS = 'Too many failed login attempts; try again later';

export interface AuthServiceDeps {
  /** Its sessions and login failures, and the accounts module's `credentials` port. */
  uow: Scope<'sessions' | 'loginThrottle' | 'credentials' | 'audit'>;
  signer: TokenSigner;
  clock: Clock;
  scryptCost: ScryptCost;
  loginThrottle: LoginThrottle;
  /** Bounds the password hashing done at once. */
  hashing: HashingGate;
  /** The callers of tokens checked before, dropped as the database notifies changes. */
  sessionCache: SessionCache;
  /** Resolves the bearer tokens that are API keys (`sck_…`). */
  apiKeys: ApiKeysService;
}

/** Sign-in, sessions behind every token, and impersonation. */
export class AuthService {
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly deps: AuthServiceDeps) {}

  /**
   * Signs in. Throttling counts failures per address, per username and per username and address; the
   * per-username limit does not apply from an address the account signed in from before, so failures
   * from elsewhere cannot lock the owner out. An attempt is counted as a failure before its password is
   * checked — decided and counted in one transaction with its keys locked — so concurrent attempts
   * cannot all pass the limit; a success takes its count back. Hashing waits in the bounded HashingGate,
   * where trusted attempts go first.
   */
  async login(username: string, password: string, address: string): Promise<string> {
    const { uow, clock, loginThrottle } = this.deps;
    const { credentials, loginThrottle: throttle } = uow;
    const now = clock.now();
    const name = username.toLowerCase();
    const keys = { user: `user:${name}`, address: `address:${address}`, pair: `user-address:${name}|${address}` };
    const since = new Date(now.getTime() - loginThrottle.windowSeconds * 1000);
    const account = await credentials.findByUsername(username);
    const trusted =
      account !== null &&
      (await throttle.isTrusted(
        account.id,
        address,
        new Date(now.getTime() - loginThrottle.trustedAddressSeconds * 1000),
      ));
    const limits: Array<[string, number]> = [
      [keys.address, loginThrottle.maxFailuresPerAddress],
      [keys.pair, loginThrottle.maxFailuresPerUsername],
      ...(trusted ? [] : [[keys.user, loginThrottle.maxFailuresPerUsername] as [string, number]]),
    ];
    const pending = await uow
      .transaction(async ({ loginThrottle: locked }) => {
        await locked.lock(Object.values(keys));
        for (const [key, limit] of limits) {
          const { count, oldest } = await locked.failuresSince(key, since);
          if (count >= limit && oldest) {
            const retryAfter = Math.max(1, Math.ceil((oldest.getTime() - since.getTime()) / 1000));
            throw tooManyRequests(TOO_MANY_ATTEMPTS, retryAfter);
          }
        }
        return locked.record(Object.values(keys), now);
      })
      .catch(async (error: unknown) => {
        if (error instanceof AppError && error.statusCode === 429) {
          await this.auditSignInFailure(account, username, 'too many attempts', now);
        }
        throw error;
      });
    let valid: boolean;
    try {
      // Without an account, still spend one hash so timing does not tell whether the username exists.
      valid = await this.deps.hashing.run(
        () =>
          account
            ? verifyPassword(password, account.password_hash)
            : this.getDummyHash().then((hash) => verifyPassword(password, hash).then(() => false)),
        trusted ? 'trusted' : 'normal',
      );
    } catch (error) {
      await throttle.forget(pending);
      throw error;
    }
    if (!account || !valid) {
      await throttle.deleteBefore(since);
      await this.auditSignInFailure(account, username, 'invalid credentials', now);
      throw unauthorized(INVALID_CREDENTIALS);
    }
    await throttle.forget(pending);
    await throttle.clear(keys.pair);
    await throttle.trust(
      account.id,
      address,
      now,
      new Date(now.getTime() - loginThrottle.trustedAddressSeconds * 1000),
    );
    const token = await this.issue(account.id, account.role, null, SESSION_TTL_SECONDS);
    await this.deps.uow.audit.record({ actorId: account.id, actingAdminId: null, action: 'login' }, now);
    return token;
  }

  /**
   * A refused sign-in, as the account it was for (so its owner sees it among its entries), or with the
   * username tried when no such account exists.
   */
  private auditSignInFailure(account: { id: string } | null, username: string, reason: string, now: Date) {
    return this.deps.uow.audit.record(
      {
        actorId: account?.id ?? null,
        actingAdminId: null,
        action: 'login',
        result: 'failure',
        details: account ? { reason } : { reason, username },
      },
      now,
    );
  }

  /**
   * The caller behind a bearer token, or null when the token or its session is not valid now: from the
   * session cache when this process checked the token before and nothing changed since. An API key is
   * resolved by the API keys service.
   */
  async authenticate(token: string): Promise<AuthContext | null> {
    if (isApiKey(token)) return this.deps.apiKeys.authenticate(token);
    const { sessionCache, clock } = this.deps;
    const key = SessionCache.keyOf(token);
    const cached = sessionCache.get(key, clock.now());
    if (cached) return cached;
    const mark = sessionCache.mark();
    const claims = await this.deps.signer.verify(token);
    if (!claims) return null;
    const active = await this.deps.uow.sessions.findActive(claims.sessionId, claims.accountId, clock.now());
    if (!active) return null;
    sessionCache.set(key, active.caller, active.expiresAt, mark);
    return active.caller;
  }

  /** Ends the presented session; ending an impersonation's session also ends the admin's own. */
  async logout(auth: AuthContext): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.uow.sessions.revoke([auth.sessionId, ...(auth.parentSessionId ? [auth.parentSessionId] : [])], now);
    await this.deps.uow.audit.record(
      { actorId: auth.accountId, actingAdminId: auth.actingAdminId, action: 'logout' },
      now,
    );
  }

  async startImpersonation(auth: AuthContext, targetId: string): Promise<string> {
    if (isImpersonating(auth)) {
      throw conflict(
        'Already impersonating. Stop current impersonation before impersonating another user.',
        'ALREADY_IMPERSONATING',
      );
    }
    if (auth.role !== 'ADMIN') throw forbidden();
    if (targetId === auth.accountId) throw conflict('You cannot impersonate yourself', 'SELF_IMPERSONATION');
    const target = await this.deps.uow.credentials.findById(targetId);
    if (!target) throw notFound('Account');
    const token = await this.issue(
      target.id,
      target.role,
      { adminId: auth.accountId, parentSessionId: auth.sessionId },
      IMPERSONATION_TTL_SECONDS,
    );
    await this.deps.uow.audit.record(
      {
        actorId: auth.accountId,
        actingAdminId: auth.accountId,
        action: 'impersonation.start',
        targetType: 'account',
        targetId: target.id,
        details: { adminId: auth.accountId, accountId: target.id },
      },
      this.deps.clock.now(),
    );
    return token;
  }

  async stopImpersonation(auth: AuthContext): Promise<void> {
    if (!isImpersonating(auth)) throw conflict('Not impersonating', 'NOT_IMPERSONATING');
    const now = this.deps.clock.now();
    await this.deps.uow.sessions.revoke([auth.sessionId], now);
    await this.deps.uow.audit.record(
      {
        actorId: auth.actingAdminId,
        actingAdminId: auth.actingAdminId,
        action: 'impersonation.stop',
        targetType: 'account',
        targetId: auth.accountId,
        details: { adminId: auth.actingAdminId, accountId: auth.accountId },
      },
      now,
    );
  }

  private async issue(
    accountId: string,
    role: Role,
    impersonation: { adminId: string; parentSessionId: string } | null,
    ttlSeconds: number,
  ): Promise<string> {
    const now = this.deps.clock.now();
    const sessionId = randomUUID();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    await this.deps.uow.sessions.insert({
      id: sessionId,
      account_id: accountId,
      acting_admin_id: impersonation?.adminId ?? null,
      parent_session_id: impersonation?.parentSessionId ?? null,
      role_at_issue: role,
      expires_at: expiresAt,
    });
    return this.deps.signer.sign({ accountId, sessionId }, expiresAt);
  }

  private getDummyHash(): Promise<string> {
    this.dummyHash ??= hashPassword(randomUUID(), this.deps.scryptCost);
    return this.dummyHash;
  }
}
