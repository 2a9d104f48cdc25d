import { defineModule } from '../module.js';
import { registerHealthRoutes } from './health.routes.js';

export const healthModule = defineModule('health', (app, { uow, options }) => {
  registerHealthRoutes(app, uow.health, options.database.engine);
});
