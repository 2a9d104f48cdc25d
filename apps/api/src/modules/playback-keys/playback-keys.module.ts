import { defineModule } from '../module.js';
import { PlaybackKeysRepository } from './playback-keys.repository.js';
import { registerPlaybackKeyRoutes } from './playback-keys.routes.js';
import { PlaybackKeysService } from './playback-keys.service.js';

declare module '../module.js' {
  interface AppServices {
    /** Playback signing keys (issue 34) and the test of a playback token against an output. */
    playbackKeys: PlaybackKeysService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    playbackKeys: PlaybackKeysRepository;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    playbackKey: true;
  }
}

/** Accounts' keys for signing playback tokens, and the token test the console's page calls. */
export const playbackKeysModule = defineModule({
  name: 'playback-keys',
  dependencies: ['nodes'],
  tables: ['playback_keys', 'playback_token_revocations'],
  repositories: { playbackKeys: PlaybackKeysRepository },
  // A revoked key is still found (revoking it again is a 409).
  access: { playbackKey: { entity: 'Playback key', table: 'playback_keys', owner: 'account_id' } },
  tags: { 'playback-keys': "An account's keys for signing playback tokens, and the token test." },
  register(app, { uow, clock, secrets }) {
    const playbackKeys = new PlaybackKeysService({
      uow,
      clock,
      secrets,
      pushToNodes: (accountId) => app.services.nodes.pushStreamsOf(accountId),
      // Looked up when a token is inspected, once every module registered (the streams module needs this one first).
      outputPolicy: (outputId) => app.services.outputs.policyOf(outputId),
      servesAccount: (nodeId, accountId) => app.services.nodes.servesAccount(nodeId, accountId),
    });
    app.services.playbackKeys = playbackKeys;
    registerPlaybackKeyRoutes(app, playbackKeys);
  },
});
