import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once no request is being handled (or after `timeoutMs`): then the database may close. */
    requestsDrained(timeoutMs: number): Promise<void>;
  }
}

/**
 * Once the server starts closing, in-flight requests finish while any request that arrives answers
 * 503 and closes its connection, so keep-alive clients move on and the close completes.
 * A request whose client went away still runs its handler after the server has closed (Fastify calls
 * no onResponse for it, but its answer still goes through onSend): it is in flight until then.
 */
export function registerShutdownGate(app: FastifyInstance): void {
  let closing = false;
  const inFlight = new Set<FastifyRequest>();
  let onIdle: (() => void) | null = null;
  const done = (request: FastifyRequest) => {
    if (inFlight.delete(request) && inFlight.size === 0) onIdle?.();
  };
  app.decorate('requestsDrained', (timeoutMs: number) => {
    if (inFlight.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      onIdle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) {
      inFlight.add(request);
      return;
    }
    reply.header('connection', 'close');
    return reply.code(503).send({ message: 'The server is shutting down; retry shortly', code: 'SHUTTING_DOWN' });
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    done(request);
    return payload;
  });
  app.addHook('onResponse', async (request) => done(request));
}
