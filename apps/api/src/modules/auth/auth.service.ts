import { randomBytes, randomUUID } from 'node:crypto';
import { type LoginResponse, type Role, TWO_FACTOR_TICKET_SECONDS } from '@streamcloud/contract';
import type { Scope, UnitOfWork } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { isImpersonating } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, conflict, forbidden, notFound, unauthorized } from '../../lib/errors.js';
import type { HashingGate } from '../../lib/hashing-gate.js';
import { hashPassword, type ScryptCost, verifyPassword } from '../../lib/password.js';
import type { TokenSigner } from '../../lib/tokens.js';
import { type ApiKeysService, isApiKey } from './api-keys.service.js';
import type { AttemptThrottle } from './attempt-throttle.js';
import { SessionCache } from './session-cache.js';
import { refusal, type TwoFactorService } from './two-factor.service.js';

export { DEFAULT_LOGIN_THROTTLE, type LoginThrottle } from './attempt-throttle.js';

export const SESSION_TTL_SECONDS = 12 * 60 * 60;
export const IMPERSONATION_TTL_SECONDS = 60 * 60;

const INVALID_CREDENTIALS = 'Invalid username or password';

/** An account as sign-in reads it (the accounts module's `credentials` port): with its password hash. */
type Credentials = NonNullable<Awaited<ReturnType<UnitOfWork['credentials']['findById']>>>;
const TICKET_EXPIRED = 'Sign-in expired; enter your username and password again';

export interface AuthServiceDeps {
  /** Its sessions and login failures, and the accounts module's `credentials` port. */
  uow: Scope<'sessions' | 'loginThrottle' | 'credentials' | 'twoFactor' | 'audit'>;
  signer: TokenSigner;
  clock: Clock;
  scryptCost: ScryptCost;
  /** Counts failed passwords and two-factor codes (429 past the limits). */
  throttle: AttemptThrottle;
  /** Bounds the password hashing done at once. */
  hashing: HashingGate;
  /** The callers of tokens checked before, dropped as the database notifies changes. */
  sessionCache: SessionCache;
  /** Resolves the bearer tokens that are API keys (`sck_…`). */
  apiKeys: ApiKeysService;
  /** Checks the second step's codes of accounts with two-factor sign-in. */
  twoFactor: TwoFactorService;
}

/** Sign-in, sessions behind every token, and impersonation. */
export class AuthService {
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly deps: AuthServiceDeps) {}

  /**
   * Signs in. Throttling counts failures per address, per username and per username and address; the
   * per-username limit does not apply from an address the account signed in from before, so failures
   * from elsewhere cannot lock the owner out (AttemptThrottle: an attempt counts as a failure until its
   * password is right). Hashing waits in the bounded HashingGate, where trusted attempts go first. An
   * account with two-factor sign-in gets a ticket for the second step (`loginWithCode`), not a session.
   */
  async login(username: string, password: string, address: string): Promise<LoginResponse> {
    const now = this.deps.clock.now();
    const account = await this.deps.uow.credentials.findByUsername(username);
    const valid = await this.passwordStep(account, username, password, address, 'login', now);
    if (!valid || !account) throw unauthorized(INVALID_CREDENTIALS);
    if (await this.deps.twoFactor.isEnabled(account.id)) return this.ticketFor(account.id, now);
    return { token: await this.signedIn(account, address, now, {}) };
  }

  /**
   * Asks a signed-in caller for its password again (before two-factor enrolment issues or replaces a secret,
   * so a stolen session alone cannot): checked as sign-in checks it — the same hash and hashing gate, the
   * same throttle keys and limits (429 past them), a failure audited (`reauthenticate`). A wrong password
   * answers sign-in's words, as 400 (the session stays: a 401 would sign the console out).
   */
  async reauthenticate(auth: AuthContext, password: string, address: string): Promise<void> {
    const now = this.deps.clock.now();
    const account = await this.deps.uow.credentials.findById(auth.accountId);
    if (!account || !(await this.passwordStep(account, auth.username, password, address, 'reauthenticate', now))) {
      throw new AppError(400, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
    }
  }

  /**
   * The password step of sign-in and of re-authentication: whether `password` is the account's. Throttling
   * counts failures per address, per username and per username and address; the per-username limit does not
   * apply from an address the account signed in from before (see `login`). Hashing waits in the bounded
   * HashingGate, where trusted attempts go first. A failure is audited as `action`.
   */
  private async passwordStep(
    account: Credentials | null,
    username: string,
    password: string,
    address: string,
    action: 'login' | 'reauthenticate',
    now: Date,
  ): Promise<boolean> {
    const { uow, throttle } = this.deps;
    const name = username.toLowerCase();
    const keys = { user: `user:${name}`, address: `address:${address}`, pair: `user-address:${name}|${address}` };
    const trusted =
      account !== null && (await uow.loginThrottle.isTrusted(account.id, address, this.trustedSince(now)));
    const limits: Array<[string, number]> = [
      [keys.address, throttle.limits.maxFailuresPerAddress],
      [keys.pair, throttle.limits.maxFailuresPerUsername],
      ...(trusted ? [] : [[keys.user, throttle.limits.maxFailuresPerUsername] as [string, number]]),
    ];
    const pending = await throttle.begin(Object.values(keys), limits, now).catch(async (error: unknown) => {
      if (error instanceof AppError && error.statusCode === 429) {
        await this.auditSignInFailure(account, username, 'too many attempts', now, action);
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
      await throttle.failed(now);
      await this.auditSignInFailure(account, username, 'invalid credentials', now, action);
      return false;
    }
    await throttle.succeeded(pending, [keys.pair]);
    return true;
  }

  /**
   * Sign-in's second step: a ticket of the password step and a TOTP code or a recovery code. The ticket is
   * used up by the one request whose code is right (a wrong code leaves it for another try, counted by the
   * throttle: 5 failures per account answer 429).
   */
  async loginWithCode(ticket: string, code: string, address: string): Promise<string> {
    const { uow, clock } = this.deps;
    const now = clock.now();
    const ticketHash = SessionCache.keyOf(ticket);
    const accountId = await uow.twoFactor.ticketAccount(ticketHash, now);
    const account = accountId ? await uow.credentials.findById(accountId) : null;
    if (!account) throw new AppError(401, 'TICKET_EXPIRED', TICKET_EXPIRED);
    const check = await this.deps.twoFactor.checkThrottled(account.id, code, address, now).catch(async (error) => {
      if (error instanceof AppError && error.statusCode === 429) {
        await this.auditSignInFailure(account, account.username, 'too many two-factor attempts', now);
      }
      throw error;
    });
    if ('failure' in check) {
      await this.auditSignInFailure(account, account.username, check.failure, now);
      const refused = refusal(check);
      throw new AppError(401, refused.code, refused.message);
    }
    if (!(await uow.twoFactor.consumeTicket(ticketHash))) throw new AppError(401, 'TICKET_EXPIRED', TICKET_EXPIRED);
    return this.signedIn(account, address, now, { twoFactor: check.method });
  }

  /** The password was right: a session, the address trusted, the sign-in audited. */
  private async signedIn(
    account: { id: string; role: Role },
    address: string,
    now: Date,
    details: Record<string, unknown>,
  ): Promise<string> {
    await this.deps.uow.loginThrottle.trust(account.id, address, now, this.trustedSince(now));
    const token = await this.issue(account.id, account.role, null, SESSION_TTL_SECONDS);
    await this.deps.uow.audit.record(
      {
        actorId: account.id,
        actingAdminId: null,
        action: 'login',
        ...(Object.keys(details).length > 0 ? { details } : {}),
      },
      now,
    );
    return token;
  }

  /** The password step's answer for an account with two-factor sign-in: a single-use ticket, stored hashed. */
  private async ticketFor(accountId: string, now: Date): Promise<LoginResponse> {
    const ticket = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + TWO_FACTOR_TICKET_SECONDS * 1000);
    await this.deps.uow.twoFactor.insertTicket(SessionCache.keyOf(ticket), accountId, expiresAt, now);
    return { twoFactorRequired: true, ticket, expiresAt: expiresAt.toISOString() };
  }

  private trustedSince(now: Date): Date {
    return new Date(now.getTime() - this.deps.throttle.limits.trustedAddressSeconds * 1000);
  }

  /**
   * A refused sign-in, as the account it was for (so its owner sees it among its entries), or with the
   * username tried when no such account exists.
   */
  private auditSignInFailure(
    account: { id: string } | null,
    username: string,
    reason: string,
    now: Date,
    action: 'login' | 'reauthenticate' = 'login',
  ) {
    return this.deps.uow.audit.record(
      {
        actorId: account?.id ?? null,
        actingAdminId: null,
        action,
        result: 'failure',
        details: account ? { reason } : { reason, username },
      },
      now,
    );
  }

  /** The caller of a session token this process checked and still holds; null for API keys and the rest. */
  cachedCaller(token: string): AuthContext | null {
    if (isApiKey(token)) return null;
    return this.deps.sessionCache.get(SessionCache.keyOf(token), this.deps.clock.now());
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
