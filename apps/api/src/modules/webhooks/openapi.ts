import {
  WEBHOOK_EVENT_SUMMARIES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  WEBHOOK_TIMEOUT_SECONDS,
  webhookEventSchema,
} from '@streamcloud/contract';
import { z } from 'zod';

const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
});

const HEADERS = [
  header('webhook-id', "The event id (the body's `id`): the same on every attempt, to deduplicate on"),
  header('webhook-timestamp', 'Seconds since the Unix epoch when this attempt was signed'),
  header(
    'webhook-signature',
    "`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the account's " +
      'signing secret (the bytes of the base64 after `whsec_`); several space-separated while a rotated ' +
      'secret still signs (Standard Webhooks)',
  ),
];

const retries = WEBHOOK_RETRY_DELAYS_SECONDS.map((seconds) =>
  seconds < 3600 ? `${seconds / 60 >= 1 ? `${seconds / 60} min` : `${seconds} s`}` : `${seconds / 3600} h`,
).join(', ');

/** The OpenAPI 3.1 `webhooks` section: one POST per event type, its body schema from the contract. */
export function webhooksOpenApi(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const { $schema: _, ...schema } = z.toJSONSchema(webhookEventSchema(type), {
        io: 'output',
        unrepresentable: 'any',
      }) as Record<string, unknown>;
      return [
        type,
        {
          post: {
            summary: WEBHOOK_EVENT_SUMMARIES[type],
            description:
              `Sent to the resource's callbackUri. Answer 2xx within ${WEBHOOK_TIMEOUT_SECONDS} s; anything else ` +
              `is retried after ${retries} (each ±20 %), then the delivery is Failed. Redirects are not followed.`,
            tags: ['webhooks'],
            parameters: HEADERS,
            requestBody: { required: true, content: { 'application/json': { schema } } },
            responses: {
              '2XX': { description: 'Delivered' },
              default: { description: 'Not delivered: retried later' },
            },
          },
        },
      ];
    }),
  );
}
