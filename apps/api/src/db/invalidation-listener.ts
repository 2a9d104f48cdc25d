import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from './database.js';

/** A cache of what was read from the database, told of changes by the database's notifications. */
export interface NotifiedCache {
  invalidate(payload: string | null): void;
  /** Whether notifications are heard (listening, none lost since): a cache keeps nothing while they are not. */
  setLive(live: boolean): void;
}

/**
 * Listens on `channel` from the app's start to its close and hands `cache` every notification; while the
 * listening connection is down (PostgreSQL) the cache is not live, and it is live again once it listens.
 */
export function keepListening(
  app: FastifyInstance,
  database: DatabaseHandle,
  channel: string,
  cache: NotifiedCache,
): void {
  let unlisten: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    let lost = false;
    unlisten = await database.listen(
      channel,
      (payload) => {
        if (payload === null) cache.setLive(true);
        else cache.invalidate(payload);
      },
      () => {
        lost = true;
        cache.setLive(false);
      },
    );
    if (!lost) cache.setLive(true);
  });
  app.addHook('onClose', async () => {
    cache.setLive(false);
    await unlisten?.();
  });
}
