// The yardstick: a bare Fastify hello-world, started as its own process like the API. WORKERS > 1 runs that
// many processes on one port through node:cluster, as API_WORKERS does for the API: like is compared with like.
import cluster from 'node:cluster';
import Fastify from 'fastify';

const workers = Number(process.env.WORKERS ?? 1);
if (workers > 1 && cluster.isPrimary) {
  for (let index = 0; index < workers; index++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  });
} else {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
}
