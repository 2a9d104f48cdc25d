import { defineModule } from '../module.js';
import { S3ConnectionChecker } from './s3-connection.js';
import { registerStorageRoutes } from './storages.routes.js';
import { StoragesService } from './storages.service.js';

/** S3 storages of an account: their sealed credentials and connection checks. */
export const storagesModule = defineModule(
  'storages',
  (app, { uow, clock, options, secrets, outbound }) => {
    const storages = new StoragesService({
      uow,
      accounts: app.services.accounts,
      clock,
      secrets,
      checker: new S3ConnectionChecker(options.storageCheckTimeoutMs, outbound.users.agents),
      usage: options.storageUsage ?? uow.storageUsage,
    });
    app.services.storages = storages;
    registerStorageRoutes(app, storages);
  },
  ['accounts'],
);
