import { defineModule } from '../module.js';
import { HealthRepository } from './health.repository.js';
import { registerHealthRoutes } from './health.routes.js';

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    health: HealthRepository;
  }
}

/** Whether this process and its database answer. */
export const healthModule = defineModule({
  name: 'health',
  repositories: { health: HealthRepository },
  register(app, { uow, options }) {
    registerHealthRoutes(app, uow.health, options.database.engine);
  },
});
