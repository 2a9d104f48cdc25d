import { defineModule } from '../module.js';
import { FallbacksRepository } from './fallbacks.repository.js';
import { registerFallbackRoutes } from './fallbacks.routes.js';
import { FallbacksService } from './fallbacks.service.js';

declare module '../module.js' {
  interface AppServices {
    fallbacks: FallbacksService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    fallbacks: FallbacksRepository;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    fallback: true;
  }
}

/** A stream's fallbacks, and the fallback-state reports of the node that plays them. */
export const fallbacksModule = defineModule({
  name: 'fallbacks',
  dependencies: ['nodes', 'storages'],
  tables: ['fallbacks'],
  repositories: { fallbacks: FallbacksRepository },
  access: { fallback: { entity: 'Fallback', table: 'fallbacks', onStream: 'input_id' } },
  tags: { fallbacks: "A stream's fallbacks: what viewers get while the push is down." },
  register(app, { uow, clock }) {
    const fallbacks = new FallbacksService({ uow, clock, storages: app.services.storages });
    app.services.fallbacks = fallbacks;
    app.services.nodeReports.registerReportHandler('fallback-state', fallbacks.applyStateReports);
    registerFallbackRoutes(app, fallbacks);
  },
});
