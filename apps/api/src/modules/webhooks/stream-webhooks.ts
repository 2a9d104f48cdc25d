import type { PushFormat } from '@streamcloud/contract';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { DomainEvents, EventBus } from '../events.js';
import type { WebhookEventSpec as Spec, WebhookOutbox } from './webhook-outbox.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** A push's usage sessions may start a little before the Ingestion report that announced it. */
const PUSH_START_SLACK_MS = 5_000;

type Event<E extends keyof DomainEvents> = DomainEvents[E];
type StreamSubject = Event<'stream.status-changed'>['stream'];
type OutputSubject = Event<'output.deleting'>['output'];
type ViewerSession = Event<'output.sessions-changed'>['after'][number];

/**
 * The webhook events of streams and their outputs, from the streams module's domain events: each runs on
 * the transaction of the change and writes nothing for a resource without a callbackUri.
 */
export class StreamWebhooks {
  constructor(private readonly outbox: WebhookOutbox) {}

  subscribe(events: EventBus): void {
    events.subscribe('stream.status-changed', (event, uow) => this.statusChanged(event, uow));
    events.subscribe('stream.deleting', (event, uow) => this.deleting(event, uow));
    events.subscribe('output.deleting', (event, uow) => this.outputDeleting(event, uow));
    events.subscribe('output.sessions-changed', (event, uow) => this.sessionsChanged(event, uow));
  }

  /**
   * stream.ingestion when a push starts, stream.idle when it ends, stream.error, and stream.fallback when
   * the fallback starts or ends.
   */
  private async statusChanged(event: Event<'stream.status-changed'>, uow: UnitOfWork): Promise<void> {
    const { stream, from, to, at } = event;
    if (!stream.callbackUri || from === to) return;
    const db = uow.webhooks.db;
    const presented = await event.present();
    const events: Spec[] = [];
    const add = (type: Spec['type'], data: Spec['data']) => events.push(streamSpec(stream, type, at, data));
    if (from === 'Fallback') add('stream.fallback', { ...presented, fallback: { state: 'ended' } });
    if (to === 'Ingestion') {
      const protocol = event.push?.protocol ?? (stream.format as PushFormat);
      const address = event.push?.remoteAddress ?? addressInMessage(event.message);
      await WebhooksRepository.rememberPush(db, { input_id: stream.id, protocol, address, started_at: at });
      add('stream.ingestion', { ...presented, push: { protocol, address } });
    } else if (to === 'Idle' && (from === 'Ingestion' || from === 'Fallback')) {
      add('stream.idle', { ...presented, push: await this.endedPush(uow, stream, at) });
    } else if (to === 'Error') {
      add('stream.error', { ...presented, error: { message: event.message ?? 'The stream went into Error' } });
    } else if (to === 'Fallback') {
      add('stream.fallback', { ...presented, fallback: { state: 'started' } });
    }
    await this.outbox.emit(db, ...events);
  }

  /** stream.deleted, and output.deleted for each of its outputs. */
  private async deleting(event: Event<'stream.deleting'>, uow: UnitOfWork): Promise<void> {
    const { stream, at } = event;
    const events: Spec[] = [];
    if (stream.callbackUri) events.push(streamSpec(stream, 'stream.deleted', at, await event.present()));
    for (const { output, present } of await event.outputs())
      if (output.callbackUri)
        events.push({ ...outputBase(stream, output, 'output.deleted', at), data: await present() });
    await this.outbox.emit(uow.webhooks.db, ...events);
  }

  /** output.deleted. */
  private async outputDeleting(event: Event<'output.deleting'>, uow: UnitOfWork): Promise<void> {
    if (!event.output.callbackUri) return;
    await this.outbox.emit(uow.webhooks.db, {
      ...outputBase(event.stream, event.output, 'output.deleted', event.at),
      data: await event.present(),
    });
  }

  /** output.session.started and .ended. */
  private async sessionsChanged(event: Event<'output.sessions-changed'>, uow: UnitOfWork): Promise<void> {
    const { stream, output, before, after, at } = event;
    if (!output.callbackUri) return;
    const now = new Set(after.map((session) => session.id));
    const earlier = new Set(before.map((session) => session.id));
    const started = after.filter((session) => !earlier.has(session.id));
    const ended = before.filter((session) => !now.has(session.id));
    if (started.length === 0 && ended.length === 0) return;
    const presented = await event.present();
    const spec = (type: 'output.session.started' | 'output.session.ended', session: ViewerSession): Spec => ({
      ...outputBase(stream, output, type, at),
      data: {
        ...presented,
        session: {
          id: session.id,
          address: session.address,
          startedAt: session.startedAt.toISOString(),
          endedAt: type === 'output.session.ended' ? at.toISOString() : null,
          bytes: session.bytes,
        },
      },
    });
    await this.outbox.emit(
      uow.webhooks.db,
      ...ended.map((session) => spec('output.session.ended', session)),
      ...started.map((session) => spec('output.session.started', session)),
    );
  }

  /** The push that ended: when it started (as stream.ingestion told) and what its sessions pushed. */
  private async endedPush(uow: UnitOfWork, stream: StreamSubject, endedAt: Date) {
    const db = uow.webhooks.db;
    const started = await WebhooksRepository.takePush(db, stream.id);
    const usage = started
      ? await WebhooksRepository.pushedSince(
          db,
          stream.id,
          new Date(started.started_at.getTime() - PUSH_START_SLACK_MS),
        )
      : { duration: 0, bytes: 0 };
    return {
      protocol: (started?.protocol ?? stream.format) as PushFormat,
      startedAt: started?.started_at.toISOString() ?? null,
      endedAt: endedAt.toISOString(),
      ...usage,
    };
  }
}

function outputBase(stream: StreamSubject, output: OutputSubject, type: Spec['type'], at: Date) {
  return {
    type,
    accountId: stream.ownerId,
    resourceType: 'output' as const,
    resourceId: output.id,
    streamId: stream.id,
    url: output.callbackUri,
    occurredAt: at,
  };
}

/** A webhook about a stream, to its callback (stream events and the analytics' quality alerts). */
export function streamSpec(
  stream: Pick<StreamSubject, 'id' | 'ownerId' | 'callbackUri'>,
  type: Spec['type'],
  at: Date,
  data: Spec['data'],
): Spec {
  return {
    type,
    accountId: stream.ownerId,
    resourceType: 'stream',
    resourceId: stream.id,
    streamId: stream.id,
    url: stream.callbackUri,
    occurredAt: at,
    data,
  };
}

/**
 * The publisher's address in the node's "Push started over RTMP from 203.0.113.7" message, for nodes that
 * do not send `push` with the report yet.
 */
function addressInMessage(message: string | undefined): string | null {
  return message ? (/^Push (?:started|resumed) over \S+ from (\S+)$/.exec(message)?.[1] ?? null) : null;
}
