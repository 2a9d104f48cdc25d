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
  // Hooks in callback form, as on every request: an async hook costs a promise and a microtask turn each.
  app.addHook('onRequest', (request, reply, next) => {
    if (!closing) {
      inFlight.add(request);
      next();
      return;
    }
    reply.header('connection', 'close');
    reply.code(503).send({ message: 'The server is shutting down; retry shortly', code: 'SHUTTING_DOWN' });
  });
  app.addHook('onSend', (request, reply, payload, next) => {
    if (closing) reply.header('connection', 'close');
    done(request);
    next(null, payload);
  });
  app.addHook('onResponse', (request, _reply, next) => {
    done(request);
    next();
  });
}
