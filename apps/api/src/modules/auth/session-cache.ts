import { hash } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { tableWritesPlugin } from '../../db/table-writes.js';
import type { AuthContext } from '../../lib/auth-context.js';

/** The channel the database notifies when a session or an account changes (migration 0015). */
export const AUTH_INVALIDATION_CHANNEL = 'auth_invalidation';

/** Enough for every session active on a busy server; past it the oldest entry goes. */
const DEFAULT_MAX_ENTRIES = 10_000;

interface Entry {
  caller: AuthContext;
  /** When the session (or, impersonating, the admin's own session) expires. */
  expiresAt: Date;
}

/**
 * The callers of the tokens this process checked, by the token's hash (the tokens themselves are not
 * kept), so a request is authenticated without a query. An entry is dropped when the database notifies
 * that its session, its parent session, its account or its acting admin changed ('s:<id>' or 'a:<id>' on
 * AUTH_INVALIDATION_CHANNEL), and is not used once expired. While the notifications may be missed (not
 * listening yet, or the listening connection lost) nothing is kept.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private live = false;
  /** Bumped by every invalidation: a lookup that began before one does not store what it read. */
  private generation = 0;

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  static keyOf(token: string): string {
    // One call, no Hash object: it runs on every authenticated request.
    return hash('sha256', token, 'base64url');
  }

  /** The cached caller of the token's hash, when its session has not expired at `now`. */
  get(key: string, now: Date): AuthContext | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return null;
    }
    return entry.caller;
  }

  /** A mark to hand `set`: what was read after it is stored only if nothing was invalidated meanwhile. */
  mark(): number {
    return this.generation;
  }

  set(key: string, caller: AuthContext, expiresAt: Date, mark: number): void {
    if (!this.live || mark !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { caller, expiresAt });
  }

  /**
   * Applies one notification: 's:<session id>' or 'a:<account id>'; '*' (tables emptied) or null (some
   * notifications may be lost) drops everything.
   */
  invalidate(payload: string | null): void {
    this.generation++;
    const [kind, id] = payload?.split(':') ?? [];
    if (!id) {
      this.entries.clear();
      return;
    }
    for (const [key, { caller }] of this.entries) {
      const concerned =
        kind === 's'
          ? caller.sessionId === id || caller.parentSessionId === id
          : caller.accountId === id || caller.actingAdminId === id;
      if (concerned) this.entries.delete(key);
    }
  }

  /** Whether notifications are heard: entries are kept only while they are. */
  setLive(live: boolean): void {
    this.live = live;
    this.invalidate(null);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * A plugin for this process's own queries: an UPDATE or DELETE of sessions, accounts, API keys, two-factor
   * secrets or security settings drops every entry
   * as soon as it returns. The database's notification does it too, but on PostgreSQL it arrives on another
   * connection, possibly after this process answered the request and was sent the next one.
   */
  localWrites(): KyselyPlugin {
    return tableWritesPlugin({ tables: CALLER_TABLES }, () => this.invalidate(null));
  }
}

const CALLER_TABLES = new Set(['sessions', 'accounts', 'api_keys', 'account_two_factor', 'security_settings']);
