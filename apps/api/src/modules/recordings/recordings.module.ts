import { deriveKey } from '../../lib/secrets.js';
import { defineModule } from '../module.js';
import { registerLostNodeExpiry } from '../stream-jobs/lost-nodes.js';
import { RecordingFiles } from './recording-files.js';
import { RecordingsRepository } from './recordings.repository.js';
import { registerRecordingRoutes } from './recordings.routes.js';
import { RecordingsService } from './recordings.service.js';

declare module '../module.js' {
  interface AppServices {
    recordings: RecordingsService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    recordings: RecordingsRepository;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    recording: true;
  }
}

/**
 * Recordings of streams into storages, and the recording-state reports of the node that records. The
 * storages module learns how many recordings use a storage through the unit of work's `storageUsage` port.
 */
export const recordingsModule = defineModule({
  name: 'recordings',
  dependencies: ['nodes', 'storages', 'statistics'],
  tables: ['recordings', 'recording_messages'],
  repositories: { recordings: RecordingsRepository },
  ports: { storageUsage: (uow) => ({ recordingsUsing: (storageId) => uow.recordings.countByStorage(storageId) }) },
  access: { recording: { entity: 'Recording', table: 'recordings', onStream: 'input_id' } },
  tags: { recordings: 'Recordings of streams into storages.' },
  register(app, { uow, clock, options, outbound }) {
    const recordings = new RecordingsService({
      uow,
      clock,
      storages: app.services.storages,
      files: new RecordingFiles(
        deriveKey(options.secret, 'recording-files'),
        outbound.users.agents,
        app.services.servedTraffic,
      ),
    });
    app.services.recordings = recordings;
    app.services.nodeReports.registerReportHandler('recording-state', recordings.applyReports);
    registerLostNodeExpiry(app, options, 'recording', recordings);
    registerRecordingRoutes(app, recordings);
  },
});
