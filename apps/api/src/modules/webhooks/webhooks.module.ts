import { defineModule } from '../module.js';
import { createWebhooksModule, type WebhookOptions, type WebhooksModule } from './index.js';
import {
  subscribeClipWebhooks,
  subscribeNodeGroupWebhooks,
  subscribeQualityWebhooks,
  subscribeStreamJobWebhooks,
} from './job-and-group-webhooks.js';
import { StreamWebhooks } from './stream-webhooks.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { registerWebhookRoutes } from './webhooks.routes.js';

export type { WebhookOptions, WebhooksModule } from './index.js';

declare module '../module.js' {
  interface AppOptions {
    /** The dispatcher (runs only with `webhooks.dispatch`), its address policy and timings (modules/webhooks). */
    webhooks?: WebhookOptions;
  }
  interface AppServices {
    /** The delivery log and secrets (`webhooks.service`), the outbox, and this process's dispatcher. */
    webhooks: WebhooksModule;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    webhooks: WebhooksRepository;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    webhookDelivery: true;
  }
}

/**
 * Webhooks: the outbox other modules write their events to (in their own transactions), the signing
 * secrets, the delivery log API and this process's dispatcher. It registers before the modules that emit.
 */
export const webhooksModule = defineModule({
  name: 'webhooks',
  tables: ['webhook_secrets', 'webhook_deliveries', 'webhook_stream_pushes'],
  repositories: { webhooks: WebhooksRepository },
  // The platform's deliveries (its own node groups') belong to no account: ADMIN only.
  access: { webhookDelivery: { entity: 'Delivery', table: 'webhook_deliveries', owner: 'account_id' } },
  tags: { webhooks: 'Webhook deliveries, their signing secrets and test events.' },
  register(app, { uow, clock, options, outbound, secrets, events }) {
    const webhooks = createWebhooksModule(app, {
      database: options.database,
      audit: uow.audit,
      access: uow.access,
      clock,
      box: secrets,
      users: outbound.users,
      log: app.log,
      ...(options.webhooks ? { options: options.webhooks } : {}),
    });
    app.services.webhooks = webhooks;
    // The streams', stream jobs', node groups', clips' and quality rules' events become deliveries, in the transaction of the change.
    new StreamWebhooks(webhooks.outbox).subscribe(events);
    subscribeStreamJobWebhooks(events, webhooks.outbox);
    subscribeNodeGroupWebhooks(events, webhooks.outbox);
    subscribeClipWebhooks(events, webhooks.outbox);
    subscribeQualityWebhooks(events, webhooks.outbox);
    registerWebhookRoutes(app, webhooks.service);
  },
});
