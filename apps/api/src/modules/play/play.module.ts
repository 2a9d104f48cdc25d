import { API_BASE } from '@streamcloud/contract';
import { defineModule } from '../module.js';
import { registerPlayRoutes } from './play.routes.js';
import { PlayService } from './play.service.js';

/** The public read behind the embeddable player page (`/play/{outputId}`, issue 37). */
export const playModule = defineModule({
  name: 'play',
  dependencies: ['streams', 'snapshots', 'analytics'],
  tags: { play: 'The public read behind the embeddable player page.' },
  register(app) {
    const play = new PlayService({
      streams: app.services.streams,
      snapshots: app.services.snapshots,
      analytics: app.services.analytics,
      apiBase: API_BASE,
    });
    registerPlayRoutes(app, play);
  },
});
