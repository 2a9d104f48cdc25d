import { randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_PREFIX, type ApiKey, type ApiKeyCreate, type ApiKeyCreated } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { isImpersonating } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, forbidden, notFound, tooManyRequests, unauthorized } from '../../lib/errors.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { ApiKeyRow } from './api-keys.repository.js';
import type { KeyRateLimiter, RateLimitState } from './key-rate-limiter.js';
import { SessionCache } from './session-cache.js';

/** Random bytes of a key: 256 bits, so a fast hash of it is as safe to store as a slow hash of a password. */
const KEY_BYTES = 32;
/** Characters of the key kept to tell keys apart: `sck_` and 6 of the random part (36 bits, not a secret). */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;
/** A key's last use is written when its address changes or this long after the last write, not on every request. */
const USE_RECORD_INTERVAL_MS = 60_000;
/** How long a key without expiry stays in the session cache between database reads (invalidations drop it sooner). */
const CACHE_SECONDS = 12 * 60 * 60;

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** A read key's answer on a route that reveals a secret. */
export const READ_KEY_SECRET_REFUSAL =
  'This API key is read-only and cannot read secrets: use a write-scoped key or sign in to the console';

export interface ApiKeysServiceDeps {
  uow: Scope<'apiKeys' | 'access' | 'audit'>;
  clock: Clock;
  sessionCache: SessionCache;
  rateLimiter: KeyRateLimiter;
}

/** What the auth guard knows of a request an API key presented. */
export interface KeyedRequest {
  method: string;
  /** The route is refused to API keys (the contract's `sessionOnly`). */
  sessionOnly: boolean;
  /** The route's answer carries a secret (the contract's `revealsSecret`): refused to read keys. */
  revealsSecret: boolean;
  address: string;
  /** Sets a response header (the `RateLimit-*` ones). */
  header(name: string, value: string): void;
}

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    lastUsedAddress: row.last_used_address,
  };
}

export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

/** Accounts' API keys: made, listed and revoked by their owner; resolved to their account on each request. */
export class ApiKeysService {
  private readonly audit: AuditTrail;
  /** When and from where each key's use was last written (this process). */
  private readonly lastRecorded = new Map<string, { at: number; address: string }>();

  constructor(private readonly deps: ApiKeysServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'api-key');
  }

  /** A key for the caller's own account; never while impersonating (the key would outlive it). */
  async create(auth: AuthContext, body: ApiKeyCreate): Promise<ApiKeyCreated> {
    if (isImpersonating(auth)) throw forbidden('API keys cannot be created while impersonating');
    const key = `${API_KEY_PREFIX}${randomBytes(KEY_BYTES).toString('base64url')}`;
    const row = await this.deps.uow.transaction(async ({ apiKeys }) => {
      // The key carries the role the caller's session was issued for; a change of role since (or one
      // waiting for this transaction) leaves no key of the old role behind.
      if ((await apiKeys.lockAccountRole(auth.accountId)) !== auth.role) throw unauthorized('Invalid or expired token');
      return apiKeys.insert({
        id: randomUUID(),
        account_id: auth.accountId,
        name: body.name,
        scope: body.scope,
        prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
        // The session cache's key of a token is its SHA-256: one hash serves the lookup and the cache.
        key_hash: SessionCache.keyOf(key),
        role_at_issue: auth.role,
        expires_at: body.expiresAt ? new Date(body.expiresAt) : null,
      });
    });
    await this.audit.record(auth, 'api-key.create', row.id, {
      name: row.name,
      scope: row.scope,
      expiresAt: row.expires_at?.toISOString() ?? null,
    });
    return { ...toApiKey(row), key };
  }

  async list(auth: AuthContext): Promise<ApiKey[]> {
    return (await this.deps.uow.apiKeys.listByAccount(auth.accountId)).map(toApiKey);
  }

  /** Its owner or ADMIN revokes a key; another account gets 404. Refused from the next request on. */
  async revoke(auth: AuthContext, id: string): Promise<void> {
    const { ownerId } = await this.deps.uow.access.require(auth, 'apiKey', id);
    if (!(await this.deps.uow.apiKeys.revoke(id, this.deps.clock.now()))) throw notFound('API key');
    this.lastRecorded.delete(id);
    await this.audit.record(auth, 'api-key.revoke', id, { accountId: ownerId });
  }

  /** The caller an API key stands for, or null when it is unknown, revoked or expired, or its account gone. */
  async authenticate(key: string): Promise<AuthContext | null> {
    const { sessionCache, clock } = this.deps;
    const hash = SessionCache.keyOf(key);
    const now = clock.now();
    const cached = sessionCache.get(hash, now);
    if (cached) return cached;
    const mark = sessionCache.mark();
    const active = await this.deps.uow.apiKeys.findActive(hash, now);
    if (!active) return null;
    const cacheUntil = new Date(now.getTime() + CACHE_SECONDS * 1000);
    sessionCache.set(
      hash,
      active.caller,
      active.expiresAt && active.expiresAt < cacheUntil ? active.expiresAt : cacheUntil,
      mark,
    );
    return active.caller;
  }

  /**
   * Lets a key's request through or refuses it: its rate limit first (every answer says where it stands),
   * then routes refused to keys, then a read key on any route that answers a secret (one rule for every such
   * route, the contract's `revealsSecret`) and on any non-GET. Records the key's last use.
   */
  async admit(key: NonNullable<AuthContext['apiKey']>, request: KeyedRequest): Promise<void> {
    const now = this.deps.clock.now();
    const state = this.deps.rateLimiter.take(key.id, now);
    setRateLimitHeaders(state, request.header);
    if (!state.allowed) throw tooManyRequests('API key rate limit exceeded; try again later', state.resetSeconds);
    if (request.sessionOnly) throw forbidden('API keys cannot be used here: sign in to the console');
    if (key.scope === 'read' && request.revealsSecret) {
      throw new AppError(403, 'READ_ONLY_KEY', READ_KEY_SECRET_REFUSAL);
    }
    if (key.scope === 'read' && !SAFE_METHODS.has(request.method)) {
      throw new AppError(403, 'READ_ONLY_KEY', 'This API key is read-only');
    }
    await this.recordUse(key.id, request.address, now);
  }

  private async recordUse(keyId: string, address: string, now: Date): Promise<void> {
    const last = this.lastRecorded.get(keyId);
    if (last && last.address === address && now.getTime() - last.at < USE_RECORD_INTERVAL_MS) return;
    this.lastRecorded.set(keyId, { at: now.getTime(), address });
    await this.deps.uow.apiKeys.recordUse(keyId, now, address);
  }
}

function setRateLimitHeaders(state: RateLimitState, header: KeyedRequest['header']): void {
  header('RateLimit-Limit', String(state.limit));
  header('RateLimit-Remaining', String(state.remaining));
  header('RateLimit-Reset', String(state.resetSeconds));
}
