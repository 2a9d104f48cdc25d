import { defineModule } from '../module.js';
import { SnapshotsRepository } from './snapshots.repository.js';
import { registerSnapshotRoutes } from './snapshots.routes.js';
import { SnapshotsService } from './snapshots.service.js';

declare module '../module.js' {
  interface AppServices {
    snapshots: SnapshotsService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    snapshots: SnapshotsRepository;
  }
}

/** Snapshot settings per stream and direction, and the snapshot reports that bring the images. */
export const snapshotsModule = defineModule({
  name: 'snapshots',
  dependencies: ['nodes'],
  tables: ['snapshot_settings', 'snapshot_images'],
  repositories: { snapshots: SnapshotsRepository },
  tags: { snapshots: "A stream's snapshot settings and images." },
  register(app, { uow, clock }) {
    const snapshots = new SnapshotsService({ uow, clock });
    app.services.snapshots = snapshots;
    app.services.nodeReports.registerReportHandler('snapshot', snapshots.applyReports);
    registerSnapshotRoutes(app, snapshots);
  },
});
