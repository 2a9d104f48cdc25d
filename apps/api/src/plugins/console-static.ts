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
}
