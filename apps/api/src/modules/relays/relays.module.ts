import { defineModule } from '../module.js';
import { registerLostNodeExpiry } from '../stream-jobs/lost-nodes.js';
import { registerRelayRoutes } from './relays.routes.js';
import { RelaysService } from './relays.service.js';

/** Relays of streams to other platforms, and the relay-state reports of the node that relays. */
export const relaysModule = defineModule(
  'relays',
  (app, { uow, clock, secrets, options }) => {
    const relays = new RelaysService({ uow, clock, secrets, outbox: app.services.webhooks.outbox });
    app.services.relays = relays;
    app.services.nodeReports.registerReportHandler('relay-state', relays.applyStateReports);
    registerLostNodeExpiry(app, options, 'relay', relays);
    registerRelayRoutes(app, relays);
  },
  ['nodes', 'webhooks'],
);
