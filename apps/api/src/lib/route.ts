import type { AnyRoute, RouteDef } from '@streamcloud/contract';
import { API_BASE } from '@streamcloud/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod';
import type { AuthContext, NodeIdentity } from './auth-context.js';

type Out<S> = NonNullable<S> extends z.ZodType ? z.output<NonNullable<S>> : undefined;

export interface RouteInput<D extends AnyRoute> {
  params: Out<D['params']>;
  query: Out<D['query']>;
  body: Out<D['body']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface AuthedRouteInput<D extends AnyRoute> extends RouteInput<D> {
  auth: AuthContext;
}

export interface NodeRouteInput<D extends AnyRoute> extends RouteInput<D> {
  node: NodeIdentity;
}

/**
 * An answer the database already wrote as the route's JSON (see the stream list): sent as it is, not
 * serialised again. Its query must write exactly what the route's schema would (a test checks it).
 */
export class JsonText {
  /** The JSON as text, or as its UTF-8 bytes (a kept answer is encoded once, not on every send). */
  constructor(readonly text: string | Buffer) {}
}

type Result<D extends AnyRoute> = D['response'] extends z.ZodType
  ? z.input<D['response']> | JsonText
  : // biome-ignore lint/suspicious/noConfusingVoidType: a 204 route's handler returns nothing
    void;

type Handler<D extends AnyRoute> = D['auth'] extends 'user' | 'admin'
  ? (input: AuthedRouteInput<D>) => Promise<Result<D>>
  : D['auth'] extends 'node'
    ? (input: NodeRouteInput<D>) => Promise<Result<D>>
    : (input: RouteInput<D>) => Promise<Result<D>>;

const ErrorResponse = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

const authErrors: Record<RouteDef['auth'], number[]> = {
  public: [],
  user: [401],
  admin: [401, 403],
  node: [401],
};

/** The OpenAPI security of a route: a node's token, or a session's token or (unless session-only) an API key. */
function securityOf(def: AnyRoute): Array<Record<string, string[]>> {
  if (def.auth === 'node') return [{ nodeToken: [] }];
  return def.sessionOnly ? [{ bearer: [] }] : [{ bearer: [] }, { apiKey: [] }];
}

/**
 * Registers one route of the contract: its schemas validate the request and the response and
 * document it in OpenAPI; the auth level picks the guard; the handler only calls the service.
 */
export function addRoute<D extends AnyRoute>(
  app: FastifyInstance,
  def: D,
  handler: Handler<D>,
  options: {
    rateLimit?: {
      max: number;
      timeWindow: string;
      keyGenerator?: (request: FastifyRequest) => string;
      /** Requests the limit does not count. */
      allowList?: (request: FastifyRequest) => boolean;
    };
    /** Raises the body limit (1 MiB by default) for routes that carry images. */
    bodyLimit?: number;
    /** Replaces the `no-store` every API answer gets (plugins/security.ts), e.g. `no-cache` for images. */
    cacheControl?: string;
    /**
     * Skips the anti-forgery check (plugins/security.ts): only for a public write that acts for no account and
     * is sent where no header can be set (`navigator.sendBeacon`: the viewer beacon).
     */
    exemptFromAntiForgery?: boolean;
  } = {},
): void {
  const successStatus = def.status ?? (def.response === null ? 204 : 200);
  const response: Record<number, z.ZodType> = {
    [successStatus]: def.response ?? z.null().describe('No content'),
  };
  for (const status of [
    ...new Set([...authErrors[def.auth as RouteDef['auth']], ...(def.errors ?? []), ...(def.body ? [400] : [])]),
  ]) {
    response[status] = ErrorResponse;
  }
  const route: RouteOptions = {
    method: def.method,
    url: `${API_BASE}${def.path}`,
    schema: {
      summary: def.summary,
      ...(def.revealsSecret
        ? { description: 'Its answer carries a secret: refused to read-scoped API keys (403).' }
        : {}),
      tags: [def.tag],
      ...(def.auth === 'public' ? {} : { security: securityOf(def) }),
      ...(def.params ? { params: def.params } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
      response,
    },
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    config: {
      auth: def.auth,
      ...(def.sessionOnly ? { sessionOnly: true } : {}),
      ...(def.revealsSecret ? { revealsSecret: true } : {}),
      ...(def.beforeTwoFactorEnrolment ? { beforeTwoFactorEnrolment: true } : {}),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      ...(options.cacheControl ? { cacheControl: options.cacheControl } : {}),
      ...(options.exemptFromAntiForgery ? { exemptFromAntiForgery: true } : {}),
    },
    handler: async (request, reply) => {
      const input = {
        params: request.params,
        query: request.query,
        body: request.body,
        auth: request.auth,
        node: request.node,
        request,
        reply,
      };
      const result = await (handler as (input: unknown) => Promise<unknown>)(input);
      // A status the handler set itself stands (206 for a file's byte range); else the route's own.
      if (reply.statusCode === 200) reply.code(successStatus);
      if (result instanceof JsonText) return reply.type('application/json; charset=utf-8').send(result.text);
      return successStatus === 204 ? reply.send() : result;
    },
  };
  app.route(route);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteDef['auth'];
    /** Refused to API keys (the contract's `sessionOnly`). */
    sessionOnly?: boolean;
    /** Refused to read-scoped API keys even on GET: the answer carries a secret (the contract's `revealsSecret`). */
    revealsSecret?: boolean;
    /** Open to an ADMIN that must enrol two-factor sign-in first (the contract's `beforeTwoFactorEnrolment`). */
    beforeTwoFactorEnrolment?: boolean;
    /** The Cache-Control of this route's answers; API answers are `no-store` otherwise. */
    cacheControl?: string;
    /** A public write the anti-forgery check leaves alone (addRoute's option of that name). */
    exemptFromAntiForgery?: boolean;
  }
  interface FastifyRequest {
    /** Set by the auth guard on 'user' and 'admin' routes. */
    auth: AuthContext;
    /** Set by the auth guard on 'node' routes. */
    node: NodeIdentity;
  }
}

/** A file from a storage (all of it, or the range asked for): its status, its headers, then its bytes. */
export interface StoredFile {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Registers the route of a file link (a recording's, a clip's): public, its token the only credential.
 * `open` checks the token and opens the file; the answer keeps its status and headers, and may be kept by
 * the browser for an hour but by no shared cache (the link is a capability).
 */
export function addFileRoute<D extends AnyRoute & { auth: 'public' }>(
  app: FastifyInstance,
  def: D,
  open: (input: RouteInput<D>) => Promise<StoredFile>,
): void {
  const send = async (input: RouteInput<D>) => {
    const file = await open(input);
    input.reply.code(file.status).headers(file.headers);
    return file.body;
  };
  // A public route's handler is `send`'s type; TypeScript does not resolve `Handler<D>` for a generic `D`.
  addRoute(app, def, send as Handler<D>, { cacheControl: 'private, max-age=3600' });
}
