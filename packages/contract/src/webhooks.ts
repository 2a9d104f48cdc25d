import { z } from 'zod';
import { QualityRule } from './analytics.js';
import { Clip } from './clips.js';
import { Id, IdParams, PageQuery, Timestamp } from './common.js';
import { NodeGroup } from './node-groups.js';
import { StreamOutput } from './outputs.js';
import { Recording } from './recordings.js';
import { Relay } from './relays.js';
import { defineRoute } from './routes.js';
import { StreamFormat, StreamInput } from './streams.js';

/**
 * Webhooks: every callbackUri (stream, output, recording, relay, node group) is called on its resource's
 * events with a signed POST (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`).
 * docs/webhooks.md tells customers how to receive them.
 */

export const WEBHOOK_EVENT_TYPES = [
  'stream.ingestion',
  'stream.idle',
  'stream.error',
  'stream.fallback',
  'stream.deleted',
  'output.session.started',
  'output.session.ended',
  'output.deleted',
  'recording.started',
  'recording.completed',
  'recording.error',
  'relay.relaying',
  'relay.completed',
  'relay.error',
  'clip.ready',
  'clip.error',
  'quality.degraded',
  'quality.recovered',
  'node-group.resources-changed',
  'webhook.test',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** What an event is about; a test event is about the account. */
export const WEBHOOK_RESOURCE_TYPES = [
  'stream',
  'output',
  'recording',
  'relay',
  'clip',
  'node-group',
  'account',
] as const;
export const WebhookResourceType = z.enum(WEBHOOK_RESOURCE_TYPES);
export type WebhookResourceType = z.infer<typeof WebhookResourceType>;

/** The request headers of every delivery (Standard Webhooks). */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** Signing secrets are `whsec_` and 32 random bytes in base64 (Standard Webhooks). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

const PushOrigin = z.object({
  /** The protocol of the push (the stream's format: a node admits no other). */
  protocol: StreamFormat,
  /** The publisher's IP address, when the node told it. */
  address: z.string().nullable(),
});

const ErrorDetail = z.object({ error: z.object({ message: z.string() }) });

const ViewerSession = z.object({
  /** The viewer's session id on the node. */
  id: z.string(),
  address: z.string().nullable(),
  startedAt: Timestamp,
  /** Set on output.session.ended: when the control plane heard that the session ended. */
  endedAt: Timestamp.nullable(),
  /** Bytes sent to the viewer (the last count the node reported). */
  bytes: z.number(),
});

/** The check that found a stream's quality rule starting or ceasing to hold: its window and what it measured. */
const QualityCheck = z.object({
  from: Timestamp,
  to: Timestamp,
  /** The metric's value over the window (null: no samples), in the rule's unit. */
  value: z.number().nullable(),
  /** Viewer sessions seen in the window (previews apart). */
  viewers: z.number().int(),
});

/** Each event's `data`: the resource as the API answers it, and what the event adds. */
export const WEBHOOK_EVENT_DATA = {
  'stream.ingestion': StreamInput.extend({ push: PushOrigin }),
  'stream.idle': StreamInput.extend({
    push: PushOrigin.omit({ address: true }).extend({
      /** When the stream went into Ingestion; null when the control plane did not see it. */
      startedAt: Timestamp.nullable(),
      endedAt: Timestamp,
      /** Seconds pushed and bytes received in the push's sessions, as the node reported them. */
      duration: z.number(),
      bytes: z.number(),
    }),
  }),
  'stream.error': StreamInput.extend(ErrorDetail.shape),
  'stream.fallback': StreamInput.extend({
    fallback: z.object({ state: z.enum(['started', 'ended']) }),
  }),
  'stream.deleted': StreamInput,
  'output.session.started': StreamOutput.extend({ session: ViewerSession }),
  'output.session.ended': StreamOutput.extend({ session: ViewerSession }),
  'output.deleted': StreamOutput,
  'recording.started': Recording,
  'recording.completed': Recording.extend({
    file: z.object({
      /** The uploaded object's key in the storage's bucket, when the node told it. */
      objectKey: z.string().nullable(),
      /** Bytes. */
      size: z.number(),
      /** Seconds. */
      duration: z.number(),
      storageId: Id,
    }),
  }),
  'recording.error': Recording.extend(ErrorDetail.shape),
  'relay.relaying': Relay,
  'relay.completed': Relay,
  'relay.error': z.intersection(Relay, ErrorDetail),
  'clip.ready': Clip,
  'clip.error': Clip.extend(ErrorDetail.shape),
  'quality.degraded': QualityRule.extend({ check: QualityCheck }),
  'quality.recovered': QualityRule.extend({ check: QualityCheck }),
  'node-group.resources-changed': NodeGroup,
  'webhook.test': z.object({
    /** The account whose secret signed it; null for the platform's own node groups. */
    accountId: Id.nullable(),
    message: z.string(),
  }),
} satisfies Record<WebhookEventType, z.ZodType>;

export type WebhookEventData<T extends WebhookEventType> = z.input<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** Every delivery's body: `{type, id, occurredAt, data}`. */
export const webhookEventSchema = <T extends WebhookEventType>(type: T) =>
  z.object({
    type: z.literal(type),
    /** The event id; also the `webhook-id` header: receivers deduplicate on it. */
    id: Id,
    /** When the change happened; deliveries may arrive out of order. */
    occurredAt: Timestamp,
    data: WEBHOOK_EVENT_DATA[type],
  });

export interface WebhookEvent<T extends WebhookEventType = WebhookEventType> {
  type: T;
  id: string;
  occurredAt: string;
  data: WebhookEventData<T>;
}

/** Short descriptions of the events, for the OpenAPI document and the console. */
export const WEBHOOK_EVENT_SUMMARIES: Record<WebhookEventType, string> = {
  'stream.ingestion': 'A push started (or resumed): the stream is in Ingestion',
  'stream.idle': 'The push ended: the stream is Idle',
  'stream.error': 'The stream went into Error',
  'stream.fallback': 'The fallback started (the stream is in Fallback) or ended',
  'stream.deleted': 'The stream was deleted (its outputs send output.deleted)',
  'output.session.started': 'A viewer started watching the output',
  'output.session.ended': "A viewer's session of the output ended",
  'output.deleted': 'The output was deleted (alone or with its stream)',
  'recording.started': 'The recording started (or an autostarting recording started a new file)',
  'recording.completed': 'The file is recorded and uploaded to the storage',
  'recording.error': 'The recording failed',
  'relay.relaying': 'The relay started sending the stream',
  'relay.completed': 'The relay ended',
  'relay.error': 'The relay failed',
  'clip.ready': 'The clip is cut and in the storage',
  'clip.error': 'The clip could not be cut',
  'quality.degraded': "The stream's quality rule started to hold: its viewers' experience is Degraded",
  'quality.recovered': "The stream's quality rule stopped holding (or was turned off while Degraded)",
  'node-group.resources-changed': "The group's nodes changed (attached, detached, allocated or released)",
  'webhook.test': 'Sent by "Send test event"',
};

export const WEBHOOK_DELIVERY_STATUSES = ['Pending', 'Delivered', 'Failed'] as const;
export const WebhookDeliveryStatus = z.enum(WEBHOOK_DELIVERY_STATUSES);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** Badge colours of the delivery log. */
export const WEBHOOK_DELIVERY_STATUS_VARIANTS: Record<WebhookDeliveryStatus, 'secondary' | 'success' | 'danger'> = {
  Pending: 'secondary',
  Delivered: 'success',
  Failed: 'danger',
};

/**
 * The delays before the retries of an undelivered event (each ±20 % jitter); after the last retry fails
 * the delivery is Failed. Seconds.
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [30, 120, 600, 3600, 6 * 3600, 24 * 3600] as const;
/** Seconds a receiver has to answer one delivery. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;
/** Deliveries are kept this long in the log. */
export const WEBHOOK_LOG_RETENTION_DAYS = 30;

/** `account=platform`: the platform's own node groups (ADMIN only). */
export const WEBHOOK_PLATFORM_SCOPE = 'platform';
const AccountScope = z.union([Id, z.literal(WEBHOOK_PLATFORM_SCOPE)], {
  error: `account must be an account id or ${WEBHOOK_PLATFORM_SCOPE}`,
});

/** One event on its way to one callback URL: the delivery log's row. */
export const WebhookDelivery = z.object({
  /** The event id (the `webhook-id` header). */
  id: Id,
  /** Whose secret signs it; null for the platform's own node groups. */
  accountId: Id.nullable(),
  type: WebhookEventType,
  resourceType: WebhookResourceType,
  /** Null only for the platform's test events. */
  resourceId: Id.nullable(),
  /** The stream the resource belongs to, if any. */
  streamId: Id.nullable(),
  url: z.string(),
  occurredAt: Timestamp,
  status: WebhookDeliveryStatus,
  /** Attempts made so far (Redeliver adds to them). */
  attempts: z.number().int(),
  lastAttemptAt: Timestamp.nullable(),
  /** The receiver's HTTP status of the last attempt; null when it did not answer. */
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** While Pending: when the next attempt is due. */
  nextAttemptAt: Timestamp.nullable(),
  deliveredAt: Timestamp.nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** A delivery with the body it sends. */
export const WebhookDeliveryDetail = WebhookDelivery.extend({ payload: z.record(z.string(), z.unknown()) });
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>;

export const WEBHOOK_LOG_PAGE_SIZE = 50;

export const WebhookDeliveryQuery = PageQuery.extend({
  limit: z.coerce.number().int().min(1).max(200).default(WEBHOOK_LOG_PAGE_SIZE),
  /** ADMIN: one account's deliveries (or the platform's); a USER always sees only its own. */
  account: AccountScope.optional(),
  /** The deliveries of a stream and of its outputs, recordings and relays. */
  streamId: Id.optional(),
  /** The deliveries of one resource. */
  resourceId: Id.optional(),
  status: WebhookDeliveryStatus.optional(),
});

export const WebhookScopeQuery = z.strictObject({ account: AccountScope.optional() });

/** The signing secret, shown to its account's owner (and ADMIN). */
export const WebhookSecret = z.object({
  accountId: Id.nullable(),
  secret: z.string(),
  createdAt: Timestamp,
  /** The secret replaced by the last rotation signs alongside until then. */
  previousExpiresAt: Timestamp.nullable(),
});
export type WebhookSecret = z.infer<typeof WebhookSecret>;

export const WebhookScopeBody = z.strictObject({ account: AccountScope.optional() });

export const CALLBACK_URL_MAX = 255;
export const WebhookTestBody = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'URL must be an http(s) URL' })
    .max(CALLBACK_URL_MAX, `URL must be at most ${CALLBACK_URL_MAX} characters`),
  account: AccountScope.optional(),
});
export type WebhookTestBody = z.input<typeof WebhookTestBody>;

export const webhookRoutes = {
  deliveries: defineRoute({
    method: 'GET',
    path: '/webhooks/deliveries',
    summary:
      'The delivery log, newest first: by account (ADMIN: all, one account, or account=platform), stream, ' +
      'resource or status; total in X-Total-Count',
    tag: 'webhooks',
    auth: 'user',
    query: WebhookDeliveryQuery,
    response: z.array(WebhookDelivery),
    errors: [404],
  }),
  delivery: defineRoute({
    method: 'GET',
    path: '/webhooks/deliveries/:id',
    summary: 'One delivery with the body it sends',
    tag: 'webhooks',
    auth: 'user',
    params: IdParams,
    response: WebhookDeliveryDetail,
    errors: [404],
  }),
  redeliver: defineRoute({
    method: 'POST',
    path: '/webhooks/deliveries/:id/redeliver',
    summary:
      'Send the event again now (same id and body, new signature), with a fresh series of retries (10 a minute per account)',
    tag: 'webhooks',
    auth: 'user',
    params: IdParams,
    response: WebhookDelivery,
    errors: [404, 429],
  }),
  secret: defineRoute({
    method: 'GET',
    path: '/webhooks/secret',
    summary: "The account's signing secret (made on first use); ADMIN: any account's, or account=platform",
    tag: 'webhooks',
    auth: 'user',
    revealsSecret: true,
    query: WebhookScopeQuery,
    response: WebhookSecret,
    errors: [404],
  }),
  rotateSecret: defineRoute({
    method: 'POST',
    path: '/webhooks/secret/rotate',
    summary: 'Replace the signing secret; the old one keeps signing alongside the new one for 24 hours',
    tag: 'webhooks',
    auth: 'user',
    revealsSecret: true,
    body: WebhookScopeBody,
    response: WebhookSecret,
    errors: [404],
  }),
  test: defineRoute({
    method: 'POST',
    path: '/webhooks/test',
    summary: 'Send a webhook.test event to a URL, signed and logged like any event (10 a minute per account)',
    tag: 'webhooks',
    auth: 'user',
    body: WebhookTestBody,
    response: WebhookDelivery,
    status: 202,
    errors: [404, 429],
  }),
};
