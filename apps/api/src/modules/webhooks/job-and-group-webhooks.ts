import type { WebhookEventType } from '@streamcloud/contract';
import type { EventBus } from '../events.js';
import { streamSpec } from './stream-webhooks.js';
import type { WebhookOutbox } from './webhook-outbox.js';

/** The webhook event of each phase of a recording or relay. */
const TYPES: Record<'recording' | 'relay', Record<'started' | 'completed' | 'error', WebhookEventType>> = {
  recording: { started: 'recording.started', completed: 'recording.completed', error: 'recording.error' },
  relay: { started: 'relay.relaying', completed: 'relay.completed', error: 'relay.error' },
};

/**
 * recording.started/.completed/.error and relay.relaying/.completed/.error, from the stream jobs' domain
 * events, in the transaction of the change; nothing for a job without a callbackUri.
 */
export function subscribeStreamJobWebhooks(events: EventBus, outbox: WebhookOutbox): void {
  events.subscribe('stream-job.changed', async (event, uow) => {
    const { job, phase, at } = event;
    if (!job.callbackUri) return;
    const presented = await event.present();
    const extra = phase === 'error' ? { error: { message: event.error ?? `The ${job.noun} failed` } } : ({} as object);
    await outbox.emit(uow.webhooks.db, {
      type: TYPES[job.noun][phase],
      accountId: job.ownerId,
      resourceType: job.noun,
      resourceId: job.id,
      streamId: job.streamId,
      url: job.callbackUri,
      occurredAt: at,
      data: { ...presented, ...extra } as never,
    });
  });
}

/** node-group.resources-changed, signed by the group's owner (the platform's for its own groups). */
export function subscribeNodeGroupWebhooks(events: EventBus, outbox: WebhookOutbox): void {
  events.subscribe('node-group.resources-changed', async (event, uow) => {
    const { group: subject, at } = event;
    if (!subject.callbackUri) return;
    const group = await event.present();
    if (!group) return;
    await outbox.emit(uow.webhooks.db, {
      type: 'node-group.resources-changed',
      accountId: subject.ownerId,
      resourceType: 'node-group',
      resourceId: subject.id,
      streamId: null,
      url: subject.callbackUri,
      occurredAt: at,
      data: group,
    });
  });
}

/** clip.ready and clip.error, from the clips' `clip.finished`, in the transaction of the change. */
export function subscribeClipWebhooks(events: EventBus, outbox: WebhookOutbox): void {
  events.subscribe('clip.finished', async (event, uow) => {
    const { clip, state, at } = event;
    if (!clip.callbackUri) return;
    const presented = await event.present();
    const extra = state === 'Error' ? { error: { message: event.error ?? 'The clip failed' } } : ({} as object);
    await outbox.emit(uow.webhooks.db, {
      type: state === 'Ready' ? 'clip.ready' : 'clip.error',
      accountId: clip.ownerId,
      resourceType: 'clip',
      resourceId: clip.id,
      streamId: clip.streamId,
      url: clip.callbackUri,
      occurredAt: at,
      data: { ...presented, ...extra } as never,
    });
  });
}

/** quality.degraded and quality.recovered, from the analytics' `quality.changed`, to the stream's callback. */
export function subscribeQualityWebhooks(events: EventBus, outbox: WebhookOutbox): void {
  events.subscribe('quality.changed', async (event, uow) => {
    const { stream, state, at, check } = event;
    if (!stream.callbackUri) return;
    const type = state === 'Degraded' ? 'quality.degraded' : 'quality.recovered';
    const measured = {
      from: check.from.toISOString(),
      to: check.to.toISOString(),
      value: check.value,
      viewers: check.viewers,
    };
    await outbox.emit(uow.webhooks.db, streamSpec(stream, type, at, { ...event.present(), check: measured }));
  });
}
