import { defineModule } from '../module.js';
import { registerSnapshotRoutes } from './snapshots.routes.js';
import { SnapshotsService } from './snapshots.service.js';

/** Snapshot settings per stream and direction, and the snapshot reports that bring the images. */
export const snapshotsModule = defineModule(
  'snapshots',
  (app, { uow, clock }) => {
    const snapshots = new SnapshotsService({ uow, clock });
    app.services.snapshots = snapshots;
    app.services.nodeReports.registerReportHandler('snapshot', snapshots.applyReports);
    registerSnapshotRoutes(app, snapshots);
  },
  ['nodes'],
);
