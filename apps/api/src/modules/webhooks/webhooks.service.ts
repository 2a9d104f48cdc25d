import {
  WEBHOOK_PLATFORM_SCOPE,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookDeliveryStatus,
  type WebhookSecret,
} from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import type { Access } from '../access/access.js';
import type { AuditRepository } from '../audit/index.js';
import type { OpenSecret, SigningSecrets } from './signing-secrets.js';
import type { WebhookOutbox } from './webhook-outbox.js';
import { type LoggedDelivery, scopeOf, type WebhooksRepository } from './webhooks.repository.js';

export interface WebhooksServiceDeps {
  db: Db;
  repository: WebhooksRepository;
  secrets: SigningSecrets;
  outbox: WebhookOutbox;
  audit: AuditRepository;
  /** Whose deliveries and accounts a caller may see (modules/access). */
  access: Access;
  clock: Clock;
}

/** `account` of a query: an account id, 'platform', or absent. */
type AccountParam = string | undefined;

export function toDelivery(row: LoggedDelivery): WebhookDelivery {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: row.id,
    accountId: row.account_id,
    type: row.type,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    streamId: row.stream_id,
    url: row.url,
    occurredAt: row.occurred_at.toISOString(),
    status: row.status,
    attempts: row.attempts,
    lastAttemptAt: iso(row.last_attempt_at),
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    nextAttemptAt: iso(row.next_attempt_at),
    deliveredAt: iso(row.delivered_at),
  };
}

const toSecret = (secret: OpenSecret): WebhookSecret => ({
  accountId: secret.accountId,
  secret: secret.secret,
  createdAt: secret.createdAt.toISOString(),
  previousExpiresAt: secret.previousExpiresAt?.toISOString() ?? null,
});

/**
 * The owner's side of webhooks: the delivery log and Redeliver, the signing secret and its rotation, and
 * test events. A USER sees only its own account's (anything else is 404); ADMIN sees every account's and
 * the platform's (its own node groups).
 */
export class WebhooksService {
  constructor(private readonly deps: WebhooksServiceDeps) {}

  async list(
    auth: AuthContext,
    query: {
      account?: AccountParam;
      streamId?: string;
      resourceId?: string;
      status?: WebhookDeliveryStatus;
      offset: number;
      limit: number;
    },
  ) {
    const accountId =
      auth.role === 'ADMIN' ? this.adminFilter(query.account) : this.deps.access.accountScope(auth, query.account);
    if (auth.role !== 'ADMIN') await this.checkResources(auth, query);
    const { rows, total } = await this.deps.repository.list(
      {
        ...(accountId !== undefined ? { accountId } : {}),
        ...(query.streamId ? { streamId: query.streamId } : {}),
        ...(query.resourceId ? { resourceId: query.resourceId } : {}),
        ...(query.status ? { status: query.status } : {}),
      },
      query.offset,
      query.limit,
    );
    return { items: rows.map(toDelivery), total };
  }

  async get(auth: AuthContext, id: string): Promise<WebhookDeliveryDetail> {
    const row = await this.owned(auth, id);
    return { ...toDelivery(row), payload: JSON.parse(row.payload) as Record<string, unknown> };
  }

  async redeliver(auth: AuthContext, id: string): Promise<WebhookDelivery> {
    await this.owned(auth, id);
    await this.deps.repository.redeliver(id, this.deps.clock.now());
    await this.audit(auth, 'webhook.redeliver', 'webhook-delivery', id);
    return toDelivery(await this.owned(auth, id));
  }

  async secret(auth: AuthContext, account: AccountParam): Promise<WebhookSecret> {
    const accountId = await this.scopeAccount(auth, account);
    const secret = await this.deps.secrets.show(scopeOf(accountId), accountId);
    await this.audit(auth, 'webhook.secret.show', 'account', accountId);
    return toSecret(secret);
  }

  async rotateSecret(auth: AuthContext, account: AccountParam): Promise<WebhookSecret> {
    const accountId = await this.scopeAccount(auth, account);
    const secret = await this.deps.secrets.rotate(scopeOf(accountId), accountId);
    await this.audit(auth, 'webhook.secret.rotate', 'account', accountId);
    return toSecret(secret);
  }

  /** Writes a webhook.test delivery to `url`: it is signed, retried and logged like any event. */
  async sendTest(auth: AuthContext, url: string, account: AccountParam): Promise<WebhookDelivery> {
    const accountId = await this.scopeAccount(auth, account);
    const now = this.deps.clock.now();
    const [id] = await this.deps.outbox.emit(this.deps.db, {
      type: 'webhook.test',
      accountId,
      resourceType: 'account',
      resourceId: accountId,
      streamId: null,
      url,
      occurredAt: now,
      data: { accountId, message: `Test event sent by ${auth.username}` },
    });
    if (!id) throw new Error('The test event was not written');
    await this.audit(auth, 'webhook.test', 'webhook-delivery', id);
    return toDelivery(await this.owned(auth, id));
  }

  /** An ADMIN's filter: every account (undefined), the platform's (null) or one account. */
  private adminFilter(account: AccountParam): string | null | undefined {
    if (account === undefined) return undefined;
    return account === WEBHOOK_PLATFORM_SCOPE ? null : account;
  }

  /** Whose secret a request is about: the caller's own account unless an ADMIN names another (or the platform). */
  private async scopeAccount(auth: AuthContext, account: AccountParam): Promise<string | null> {
    if (auth.role !== 'ADMIN') return this.deps.access.accountScope(auth, account);
    const named = this.adminFilter(account);
    if (named === undefined) return auth.accountId;
    if (named !== null && !(await this.deps.repository.accountExists(named))) throw notFound('Account');
    return named;
  }

  /** A USER filtering by a stream or resource of another account gets 404, as for the resource itself. */
  private async checkResources(auth: AuthContext, query: { streamId?: string; resourceId?: string }): Promise<void> {
    for (const [column, value] of [
      ['stream_id', query.streamId],
      ['resource_id', query.resourceId],
    ] as const) {
      if (!value) continue;
      const foreign = await this.deps.repository.belongsToAnotherAccount(column, value, auth.accountId);
      if (foreign) throw notFound(column === 'stream_id' ? 'Stream' : 'Resource');
    }
  }

  private async owned(auth: AuthContext, id: string) {
    await this.deps.access.require(auth, 'webhookDelivery', id);
    const row = await this.deps.repository.findById(id);
    if (!row) throw notFound('Delivery');
    return row;
  }

  private audit(auth: AuthContext, action: string, targetType: string, targetId: string | null) {
    return this.deps.audit.record(
      {
        actorId: auth.accountId,
        actingAdminId: auth.actingAdminId,
        action,
        targetType,
        ...(targetId ? { targetId } : {}),
      },
      this.deps.clock.now(),
    );
  }
}
