import { defineModule } from '../module.js';
import { createWebhooksModule, registerWebhookRoutes } from './index.js';

export type { WebhookOptions, WebhooksModule } from './index.js';

/**
 * Webhooks: the outbox other modules write their events to (in their own transactions), the signing
 * secrets, the delivery log API and this process's dispatcher. It registers before the modules that emit.
 */
export const webhooksModule = defineModule('webhooks', (app, { uow, clock, options, outbound, secrets }) => {
  const webhooks = createWebhooksModule(app, {
    database: options.database,
    audit: uow.audit,
    clock,
    box: secrets,
    users: outbound.users,
    log: app.log,
    ...(options.webhooks ? { options: options.webhooks } : {}),
  });
  app.services.webhooks = webhooks;
  registerWebhookRoutes(app, webhooks.service);
});
