import { defineModule } from '../module.js';
import { registerLostNodeExpiry } from '../stream-jobs/lost-nodes.js';
import { RelaysRepository } from './relays.repository.js';
import { registerRelayRoutes } from './relays.routes.js';
import { RelaysService } from './relays.service.js';

declare module '../module.js' {
  interface AppServices {
    relays: RelaysService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    relays: RelaysRepository;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    relay: true;
  }
}

/** Relays of streams to other platforms, and the relay-state reports of the node that relays. */
export const relaysModule = defineModule({
  name: 'relays',
  dependencies: ['nodes'],
  tables: ['relays', 'relay_messages'],
  repositories: { relays: RelaysRepository },
  access: { relay: { entity: 'Relay', table: 'relays', onStream: 'input_id' } },
  tags: { relays: 'Relays of streams to other platforms.' },
  register(app, { uow, clock, secrets, options }) {
    const relays = new RelaysService({ uow, clock, secrets });
    app.services.relays = relays;
    app.services.nodeReports.registerReportHandler('relay-state', relays.applyStateReports);
    registerLostNodeExpiry(app, options, 'relay', relays);
    registerRelayRoutes(app, relays);
  },
});
