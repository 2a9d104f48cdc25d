import type { FastifyInstance } from 'fastify';

/**
 * Once the server starts closing, in-flight requests finish while any request that arrives answers
 * 503 and closes its connection, so keep-alive clients move on and the close completes.
 */
export function registerShutdownGate(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    return reply.code(503).send({ message: 'The server is shutting down; retry shortly', code: 'SHUTTING_DOWN' });
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
}
