import type { z } from 'zod';
import { rejectMalformedText } from './text.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route:
 * - public: anyone;
 * - user: any signed-in account (ownership is the service's business);
 * - admin: signed-in ADMIN (USER gets 403);
 * - node: a media node with its node token.
 */
export type RouteAuth = 'public' | 'user' | 'admin' | 'node';

export interface RouteDef<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | null = z.ZodType | null,
  A extends RouteAuth = RouteAuth,
> {
  method: HttpMethod;
  /** Path under /api/v1, Fastify style (`/accounts/:id`). */
  path: string;
  summary: string;
  tag: string;
  auth: A;
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of the success body, or null for 204 No Content. */
  response: R;
  /** Success status; 200 by default, 204 when response is null. */
  status?: number;
  /** Extra documented error statuses besides the ones implied by auth. */
  errors?: number[];
  /**
   * Refused to API keys (403) even with the write scope: managing credentials (keys, passwords, 2FA) and
   * sessions needs a signed-in session.
   */
  sessionOnly?: boolean;
  /**
   * Its answer carries a secret (a signing secret, a token or credential to act or publish with): refused to a
   * read-scoped API key (403) even on GET; a write-scoped key or a session gets it. A test checks that every
   * route answering a field named like a secret says so (or is session-only, or exempt with its reason).
   */
  revealsSecret?: boolean;
  /**
   * Open to an ADMIN the security settings require to enrol two-factor sign-in before it has (every other
   * route answers it 403): whoami, sign-out, the enrolment, and what the console reads to show Account settings.
   */
  beforeTwoFactorEnrolment?: boolean;
}

export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | null = null,
  A extends RouteAuth = RouteAuth,
>(def: RouteDef<P, Q, B, R, A>): RouteDef<P, Q, B, R, A> {
  // Every string a request carries is checked for NUL and unpaired surrogates (text.ts).
  const guarded = { ...def };
  if (def.params) guarded.params = rejectMalformedText(def.params);
  if (def.query) guarded.query = rejectMalformedText(def.query);
  if (def.body) guarded.body = rejectMalformedText(def.body);
  return guarded;
}

// biome-ignore lint/suspicious/noExplicitAny: the widest route definition, for generic helpers
export type AnyRoute = RouteDef<any, any, any, any, any>;

type InputOf<S> = NonNullable<S> extends z.ZodType ? z.input<NonNullable<S>> : undefined;
export type ParamsOf<T extends AnyRoute> = InputOf<T['params']>;
export type QueryOf<T extends AnyRoute> = InputOf<T['query']>;
export type BodyOf<T extends AnyRoute> = InputOf<T['body']>;
export type ResponseOf<T extends AnyRoute> = T['response'] extends z.ZodType ? z.output<T['response']> : undefined;

/** Fills `:name` segments of a route path. */
export function buildPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
