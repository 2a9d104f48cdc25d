import { defineModule } from '../module.js';
import './vods.table.js';
import { VodsRepository } from './vods.repository.js';
import { registerVodRoutes } from './vods.routes.js';
import { VodsService } from './vods.service.js';

declare module '../module.js' {
  interface AppServices {
    vods: VodsService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    vods: VodsRepository;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    vod: true;
  }
}

/** VODs of streams' ended sessions (issue 35), kept by the node that held the rewind window, and its reports of them. */
export const vodsModule = defineModule({
  name: 'vods',
  dependencies: ['nodes', 'streams'],
  tables: ['vods'],
  repositories: { vods: VodsRepository },
  access: { vod: { entity: 'VOD', table: 'vods', onStream: 'input_id' } },
  tags: { vods: "HLS VODs of streams' ended sessions, from the rewind window on the node." },
  register(app, { uow }) {
    const vods = new VodsService({ uow });
    app.services.vods = vods;
    app.services.nodeReports.registerReportHandler('vod', vods.applyReports);
    registerVodRoutes(app, vods);
  },
});
