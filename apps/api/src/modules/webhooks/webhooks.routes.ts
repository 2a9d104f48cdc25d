import { TOTAL_COUNT_HEADER, webhookRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { OUTBOUND_RATE_LIMIT } from '../../lib/outbound.js';
import { addRoute } from '../../lib/route.js';
import type { WebhooksService } from './webhooks.service.js';

export function registerWebhookRoutes(app: FastifyInstance, webhooks: WebhooksService): void {
  // A test event and a Redeliver make the server connect out now, to a URL a user chose.
  const outbound = { rateLimit: OUTBOUND_RATE_LIMIT };
  addRoute(app, webhookRoutes.deliveries, async ({ auth, query, reply }) => {
    const { items, total } = await webhooks.list(auth, query);
    reply.header(TOTAL_COUNT_HEADER, String(total));
    return items;
  });
  addRoute(app, webhookRoutes.delivery, ({ auth, params }) => webhooks.get(auth, params.id));
  addRoute(app, webhookRoutes.redeliver, ({ auth, params }) => webhooks.redeliver(auth, params.id), outbound);
  addRoute(app, webhookRoutes.secret, ({ auth, query }) => webhooks.secret(auth, query.account));
  addRoute(app, webhookRoutes.rotateSecret, ({ auth, body }) => webhooks.rotateSecret(auth, body.account));
  addRoute(app, webhookRoutes.test, ({ auth, body }) => webhooks.sendTest(auth, body.url, body.account), outbound);
}
