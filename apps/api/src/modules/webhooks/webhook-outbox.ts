import { randomUUID } from 'node:crypto';
import type { WebhookEvent, WebhookEventData, WebhookEventType, WebhookResourceType } from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** One event of one resource, for its callback URL. */
export interface WebhookEventSpec<T extends WebhookEventType = WebhookEventType> {
  type: T;
  /** Whose secret signs it and whose log shows it; null: the platform (its own node groups). */
  accountId: string | null;
  resourceType: WebhookResourceType;
  resourceId: string | null;
  /** The stream the resource belongs to, for the stream's log. */
  streamId: string | null;
  /** The resource's callbackUri: without one there is nothing to send. */
  url: string | null;
  occurredAt: Date;
  data: WebhookEventData<T>;
}

/**
 * Where modules put the events of their changes: each becomes a delivery row written in the change's own
 * transaction, so an event is never lost to a crash and never sent for a change that rolled back. The
 * insert wakes the dispatchers when the transaction commits (a NOTIFY from the table's trigger).
 */
export class WebhookOutbox {
  constructor(private readonly clock: Clock) {}

  /**
   * Writes the deliveries of `events` (those with a URL) on `db`, which must be the transaction of the
   * change. Answers the new event ids.
   */
  async emit(db: Db, ...events: WebhookEventSpec[]): Promise<string[]> {
    const now = this.clock.now();
    const rows = events
      .filter((event) => event.url)
      .map((event) => {
        const id = randomUUID();
        const body: WebhookEvent = {
          type: event.type,
          id,
          occurredAt: event.occurredAt.toISOString(),
          data: event.data,
        };
        return {
          id,
          account_id: event.accountId,
          type: event.type,
          resource_type: event.resourceType,
          resource_id: event.resourceId,
          stream_id: event.streamId,
          url: event.url as string,
          payload: JSON.stringify(body),
          occurred_at: event.occurredAt,
          status: 'Pending' as const,
          // Due at once (occurredAt may be a node's clock, which may run ahead).
          next_attempt_at: now,
        };
      });
    await WebhooksRepository.insert(db, rows);
    return rows.map((row) => row.id);
  }
}
