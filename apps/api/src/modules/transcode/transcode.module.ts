import { defineModule } from '../module.js';
import { TranscodeRepository } from './transcode.repository.js';
import { registerTranscodeRoutes } from './transcode.routes.js';
import { TranscodeService } from './transcode.service.js';

declare module '../module.js' {
  interface AppServices {
    transcode: TranscodeService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    transcode: TranscodeRepository;
  }
}

/** The transcode configuration of streams (`/inputs/{id}/output`), for their owners and their node. */
export const transcodeModule = defineModule({
  name: 'transcode',
  tables: ['input_overlays'],
  repositories: { transcode: TranscodeRepository },
  tags: { transcoding: "A stream's transcode ladder, overlay and ad markers." },
  register(app, { uow, clock }) {
    const transcode = new TranscodeService({ uow, clock });
    app.services.transcode = transcode;
    registerTranscodeRoutes(app, transcode);
  },
});
