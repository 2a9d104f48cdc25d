import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export interface ConsoleRuntimeConfig {
  apiBase: string;
  storagePrefix: string;
}

/** Serves the built console at `/` and its runtime configuration at `/config.json`. */
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
  await app.register(fastifyStatic, {
    root: consoleDir,
    prefix: '/',
    wildcard: true,
    setHeaders: (reply, path) => {
      reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
