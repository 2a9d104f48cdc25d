import { defineModule } from '../module.js';
import { S3ConnectionChecker } from './s3-connection.js';
import type { StorageUsage } from './storage-usage.js';
import { StoragesRepository } from './storages.repository.js';
import { registerStorageRoutes } from './storages.routes.js';
import { StoragesService } from './storages.service.js';

declare module '../module.js' {
  interface AppOptions {
    /** Timeout of each S3 call of a storage connection check (5 s by default). */
    storageCheckTimeoutMs?: number;
    /** Whether recordings use a storage; the recordings module's count by default. */
    storageUsage?: StorageUsage;
  }
  interface AppServices {
    storages: StoragesService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    storages: StoragesRepository;
    /** The port the recordings module exposes for this one: how many recordings use a storage. */
    storageUsage: StorageUsage;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    storage: true;
  }
}

/** S3 storages of an account: their sealed credentials and connection checks. */
export const storagesModule = defineModule({
  name: 'storages',
  dependencies: ['accounts'],
  tables: ['storages'],
  repositories: { storages: StoragesRepository },
  access: { storage: { entity: 'Storage', table: 'storages', owner: 'owner_id' } },
  tags: { storages: "An account's S3 storages and their connection checks." },
  register(app, { uow, clock, options, secrets, outbound }) {
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
});
