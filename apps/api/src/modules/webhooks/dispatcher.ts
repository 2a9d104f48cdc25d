import { randomUUID } from 'node:crypto';
import type { GuardedFetch } from '@streamcloud/net-guard';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { postJson } from './http-post.js';
import { retryAt } from './retry-schedule.js';
import { signedHeaders } from './signature.js';
import type { SigningSecrets } from './signing-secrets.js';
import { type AttemptResult, type ClaimedDelivery, scopeOf, type WebhooksRepository } from './webhooks.repository.js';

export interface DispatcherOptions {
  /** How long a receiver has to answer. */
  timeoutMs: number;
  /** Delays before each retry (the schedule's length is the number of retries). */
  retryDelaysMs: readonly number[];
  /** Deliveries claimed per query. */
  batchSize: number;
  /** Deliveries in flight at once. */
  concurrency: number;
  /** The longest sleep without a wake-up: catches a notification missed while the listener reconnected. */
  pollIntervalMs: number;
  random?: () => number;
}

/** Spare time of a lease beyond the timeout, so that a slow attempt is never taken over while it runs. */
const LEASE_MARGIN_MS = 5_000;

/**
 * Sends due deliveries. Each API process runs one; they share the outbox, and a claim (FOR UPDATE SKIP
 * LOCKED, then a lease) gives each due delivery to one dispatcher only. A dispatcher that dies mid-attempt
 * loses its lease when it ends, and the delivery is due again. It wakes when a delivery is written
 * (NOTIFY), when the earliest retry is due, and at least every `pollIntervalMs`.
 */
export class WebhookDispatcher {
  /** This dispatcher's name on its leases. */
  readonly id = randomUUID();
  private running = false;
  private pumping: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      repository: WebhooksRepository;
      secrets: SigningSecrets;
      /** The guarded fetch of callbacks (lib/outbound.ts: users' destinations). */
      fetch: GuardedFetch;
      clock: Clock;
      log?: FastifyBaseLogger;
      options: DispatcherOptions;
    },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /** Stops claiming; attempts in flight finish (each within the timeout). */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.pumping;
    await Promise.all([...this.inFlight]);
  }

  /** Something may be due: look now (or right after the look in progress). */
  wake(): void {
    if (!this.running) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.pumping = this.pump()
      .catch((error: unknown) => this.deps.log?.error({ err: error }, 'webhook dispatch failed'))
      .finally(() => {
        this.pumping = null;
        if (this.again) {
          this.again = false;
          this.wake();
        } else void this.sleep();
      });
  }

  /**
   * Sends everything due now and waits for the answers (tests, benchmarks, and a dispatcher that is not
   * started). Answers how many attempts were made.
   */
  async drain(): Promise<number> {
    let attempts = 0;
    for (;;) {
      const claimed = await this.claim(this.deps.options.batchSize);
      if (claimed.length === 0 && this.inFlight.size === 0) return attempts;
      attempts += claimed.length;
      if (claimed.length > 0) this.send(claimed);
      await Promise.race([...this.inFlight]);
    }
  }

  private async pump(): Promise<void> {
    const { batchSize, concurrency } = this.deps.options;
    while (this.running && this.inFlight.size < concurrency) {
      const claimed = await this.claim(Math.min(batchSize, concurrency - this.inFlight.size));
      if (claimed.length === 0) return;
      this.send(claimed);
    }
  }

  /** Sleeps until the earliest pending delivery is due, at most the poll interval. */
  private async sleep(): Promise<void> {
    if (!this.running) return;
    const due = await this.deps.repository.nextDueAt().catch(() => null);
    if (!this.running || this.pumping) return;
    const { pollIntervalMs } = this.deps.options;
    const wait = due
      ? Math.max(0, Math.min(due.getTime() - this.deps.clock.now().getTime(), pollIntervalMs))
      : pollIntervalMs;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }

  private claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.deps.clock.now();
    const lease = new Date(now.getTime() + this.deps.options.timeoutMs + LEASE_MARGIN_MS);
    return this.deps.repository.claimDue(now, lease, this.id, limit);
  }

  /**
   * Sends a claimed batch: deliveries of one resource one after the other, in the order they were
   * written (receivers mostly see a resource's events in order), different resources at once.
   */
  private send(claimed: ClaimedDelivery[]): void {
    const byResource = new Map<string, ClaimedDelivery[]>();
    for (const delivery of claimed) {
      const key = delivery.resource_id ?? delivery.id;
      byResource.set(key, [...(byResource.get(key) ?? []), delivery]);
    }
    for (const queue of byResource.values()) {
      const work = (async () => {
        for (const delivery of queue) await this.attempt(delivery);
      })();
      const tracked = work
        .catch((error: unknown) => this.deps.log?.error({ err: error }, 'recording a webhook attempt failed'))
        .finally(() => {
          this.inFlight.delete(tracked);
          if (this.running) this.wake();
        });
      this.inFlight.add(tracked);
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const { options, clock, repository } = this.deps;
    const scope = scopeOf(delivery.account_id);
    const sealed = delivery.secret
      ? {
          secret: delivery.secret,
          previous_secret: delivery.previous_secret,
          previous_expires_at: delivery.previous_expires_at,
        }
      : await this.deps.secrets.ensure(scope, delivery.account_id);
    const headers = signedHeaders(
      this.deps.secrets.signingKeys(scope, sealed),
      delivery.id,
      clock.now(),
      delivery.payload,
    );
    const outcome = await postJson(this.deps.fetch, delivery.url, delivery.payload, headers, options.timeoutMs);
    const at = clock.now();
    let result: AttemptResult;
    if (outcome.ok) {
      result = {
        status: 'Delivered',
        statusCode: outcome.statusCode,
        error: null,
        nextAttemptAt: null,
        retryStep: delivery.retry_step,
        at,
      };
    } else {
      // Counted from the attempt's start, as the log shows it: a slow receiver does not push the retry later.
      const next = retryAt(delivery.retry_step, delivery.last_attempt_at, options.retryDelaysMs, options.random);
      result = {
        status: next ? 'Pending' : 'Failed',
        statusCode: outcome.statusCode,
        error: outcome.error,
        nextAttemptAt: next,
        retryStep: delivery.retry_step + 1,
        at,
      };
      if (!next) this.deps.log?.warn({ delivery: delivery.id, error: outcome.error }, 'a webhook delivery gave up');
    }
    await repository.recordAttempt(delivery.id, this.id, result);
  }
}
