import { defineModule } from '../module.js';
import { registerFallbackRoutes } from './fallbacks.routes.js';
import { FallbacksService } from './fallbacks.service.js';

/** A stream's fallbacks, and the fallback-state reports of the node that plays them. */
export const fallbacksModule = defineModule(
  'fallbacks',
  (app, { uow, clock }) => {
    const fallbacks = new FallbacksService({ uow, clock, storages: app.services.storages });
    app.services.fallbacks = fallbacks;
    app.services.nodeReports.registerReportHandler('fallback-state', fallbacks.applyStateReports);
    registerFallbackRoutes(app, fallbacks);
  },
  ['nodes', 'storages'],
);
