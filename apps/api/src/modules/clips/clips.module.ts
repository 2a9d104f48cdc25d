import { registerPeriodicJob } from '../../lib/periodic.js';
import { deriveKey } from '../../lib/secrets.js';
import { defineModule } from '../module.js';
import { RecordingFiles } from '../recordings/index.js';
import './clip-events.js';
import './clips.table.js';
import { ClipsRepository } from './clips.repository.js';
import { registerClipRoutes } from './clips.routes.js';
import { ClipsService } from './clips.service.js';

declare module '../module.js' {
  interface AppServices {
    clips: ClipsService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    clips: ClipsRepository;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    clip: true;
  }
}

/** How often clips no node finished are looked for (they go to Error after CLIP_DEADLINE_MS). */
const OVERDUE_CHECK_MS = 10_000;

/**
 * Clips of a stream's rewind window or of a recording (issue 35), cut by the node holding the stream, and the
 * clip-state reports of that node; clip.ready and clip.error reach the webhooks module as `clip.finished`.
 */
export const clipsModule = defineModule({
  name: 'clips',
  dependencies: ['nodes', 'storages', 'recordings', 'statistics'],
  tables: ['clips'],
  repositories: { clips: ClipsRepository },
  access: { clip: { entity: 'Clip', table: 'clips', onStream: 'input_id' } },
  tags: { clips: "Clips cut from a stream's rewind window or a recording, without re-encoding." },
  register(app, { uow, clock, options, outbound }) {
    const clips = new ClipsService({
      uow,
      clock,
      storages: app.services.storages,
      recordings: app.services.recordings,
      nodes: app.services.nodes,
      files: new RecordingFiles(
        deriveKey(options.secret, 'clip-files'),
        outbound.users.agents,
        app.services.servedTraffic,
        'clip',
      ),
      log: app.log,
    });
    app.services.clips = clips;
    app.services.nodeReports.registerReportHandler('clip-state', clips.applyStateReports);
    registerPeriodicJob(app, { what: 'clip deadline', intervalMs: OVERDUE_CHECK_MS, run: () => clips.expireOverdue() });
    registerClipRoutes(app, clips);
  },
});
