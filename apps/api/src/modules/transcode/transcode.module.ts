import { defineModule } from '../module.js';
import { registerTranscodeRoutes } from './transcode.routes.js';
import { TranscodeService } from './transcode.service.js';

/** The transcode configuration of streams (`/inputs/{id}/output`), for their owners and their node. */
export const transcodeModule = defineModule('transcode', (app, { uow, clock }) => {
  const transcode = new TranscodeService({ uow, clock });
  app.services.transcode = transcode;
  registerTranscodeRoutes(app, transcode);
});
