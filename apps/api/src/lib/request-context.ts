import { AsyncLocalStorage } from 'node:async_hooks';

/** What the code a request runs may need to know about that request without it being passed down. */
export interface RequestContext {
  /** The address the request came from (Fastify's `request.ip`). */
  address: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Runs the rest of a request (from a `preHandler` hook, after the body is parsed, so the handler and all it
 * awaits see it) inside its context. The audit log reads the source address here: every service that
 * writes an audit record would otherwise have to carry the address through its signature.
 */
export function runInRequestContext(context: RequestContext, next: () => void): void {
  storage.run(context, next);
}

/** The current request's context; undefined outside a request (periodic jobs, start-up). */
export const currentRequest = (): RequestContext | undefined => storage.getStore();
