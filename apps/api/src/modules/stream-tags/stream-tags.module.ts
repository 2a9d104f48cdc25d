import { defineModule } from '../module.js';
import { StreamTagsRepository } from './stream-tags.repository.js';
import { registerStreamTagRoutes } from './stream-tags.routes.js';
import { StreamTagsService } from './stream-tags.service.js';

declare module '../module.js' {
  interface AppServices {
    streamTags: StreamTagsService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    streamTags: StreamTagsRepository;
  }
}

/** Stream tags (issue 40): a customer's labels on its streams, and the streams with a tag. */
export const streamTagsModule = defineModule({
  name: 'stream-tags',
  dependencies: ['streams'],
  tables: ['stream_tags'],
  repositories: { streamTags: StreamTagsRepository },
  tags: { 'stream-tags': "Labels on a customer's streams, and the streams with a label." },
  register(app, { uow, clock }) {
    const streamTags = new StreamTagsService({ uow, clock });
    app.services.streamTags = streamTags;
    registerStreamTagRoutes(app, streamTags);
  },
});
