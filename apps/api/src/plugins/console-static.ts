import { existsSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export interface ConsoleRuntimeConfig {
  apiBase: string;
  storagePrefix: string;
}

/** Content-hashed build output: a changed file gets a new name, so it may be cached for good. */
const HASHED_ASSETS = `assets${sep}`;

/**
 * Serves the built console at `/` and its runtime configuration at `/config.json`. The build writes a
 * brotli (`.br`) and a gzip (`.gz`) copy beside every text file; the one the browser's Accept-Encoding
 * prefers is sent (brotli first), the plain file otherwise, always with `Vary: Accept-Encoding`.
 */
export async function registerConsole(
  app: FastifyInstance,
  consoleDir: string | undefined,
  runtime: ConsoleRuntimeConfig,
): Promise<void> {
  app.get('/config.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return runtime;
  });
  if (!consoleDir || !existsSync(consoleDir)) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply.code(503).type('text/plain').send('The console is not built. Run `npm start`, which builds it.'),
    );
    return;
  }
  const root = resolve(consoleDir);
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: true,
    preCompressed: true,
    setHeaders: (reply, path) => {
      // index.html (and anything else unhashed) is revalidated on every load so a new build shows at once.
      const hashed = relative(root, path).startsWith(HASHED_ASSETS);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  registerPlayPage(app, existsSync(resolve(root, PLAY_PAGE)));
}

/** The embeddable player's page, a second entry of the console's build with its own small bundle. */
const PLAY_PAGE = 'play.html';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `/play/{outputId}`: the player page for any uuid (the page itself asks the API whether the output exists,
 * and says so); anything else is a 404 page, never an error. Revalidated like index.html; its scripts are
 * hashed assets.
 */
function registerPlayPage(app: FastifyInstance, built: boolean): void {
  app.get<{ Params: { id: string } }>('/play/:id', { schema: { hide: true } }, async (request, reply) => {
    if (!built || !UUID.test(request.params.id)) {
      return reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile(PLAY_PAGE);
  });
}

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found</title>' +
  '<p role="status">There is no player at this address.</p></html>';
