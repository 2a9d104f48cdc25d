import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import cookie from '@fastify/cookie';
import { ANTI_FORGERY_COOKIE, ANTI_FORGERY_HEADER, API_BASE, API_KEY_PREFIX } from '@streamcloud/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { forbidden } from '../lib/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const HELMET: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      // The console's documents add the media nodes' origins (storyboard sheets): see registerSecurity.
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      // The console's documents add the media nodes' origins (WHEP, WHIP, HLS): see registerSecurity.
      connectSrc: ["'self'"],
      // Its video plays a MediaStream (WHEP) or a Media Source blob (hls.js).
      mediaSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: false,
};

/**
 * The headers helmet sets, computed once: they are the same on every response, and building helmet's
 * middleware on each request (as @fastify/helmet does) cost a tenth of a cached GET's time.
 */
function staticSecurityHeaders(options: HelmetOptions): [string, string][] {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return [...headers];
}

/** Random bytes drawn in batches: one call to the system's generator per 128 anti-forgery tokens. */
class RandomPool {
  private pool = Buffer.alloc(0);
  private offset = 0;

  constructor(private readonly batch: number) {}

  take(size: number): Buffer {
    if (this.offset + size > this.pool.length) {
      this.pool = randomBytes(Math.max(size, this.batch));
      this.offset = 0;
    }
    const bytes = this.pool.subarray(this.offset, this.offset + size);
    this.offset += size;
    return bytes;
  }
}

/** Anti-forgery tokens are `random.hmac(random)`, so a cookie planted by someone else does not verify. */
class AntiForgeryTokens {
  private readonly random = new RandomPool(24 * 128);

  constructor(private readonly secret: string) {}

  issue(): string {
    const nonce = this.random.take(24).toString('base64url');
    return `${nonce}.${this.mac(nonce)}`;
  }

  isValid(token: string | undefined): token is string {
    if (!token) return false;
    const [nonce, mac] = token.split('.');
    if (!nonce || !mac) return false;
    const expected = Buffer.from(this.mac(nonce));
    const actual = Buffer.from(mac);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  private mac(nonce: string): string {
    return createHmac('sha256', this.secret).update(`anti-forgery:${nonce}`).digest('base64url');
  }
}

const sameToken = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The embeddable player's page (`/play/{outputId}`), the one page other sites may frame. */
export const isEmbeddablePage = (url: string) => url.startsWith('/play/') || url === '/play.html';

export interface SecurityOptions {
  /** Origins a console page may connect to besides its own (the media nodes'); read for each page. */
  connectOrigins?: () => Promise<string[]>;
}

/**
 * Security headers on every response, `no-store` on API answers, and the double-submit anti-forgery
 * check: a non-GET API request that carries the cookie must echo it in the header (one with an API key need not).
 */
export async function registerSecurity(
  app: FastifyInstance,
  secret: string,
  options: SecurityOptions = {},
): Promise<void> {
  const tokens = new AntiForgeryTokens(secret);
  await app.register(cookie);
  const securityHeaders = staticSecurityHeaders(HELMET);
  const policy = new Map(securityHeaders).get('content-security-policy') ?? '';
  const { connectOrigins } = options;
  // A console page talks to the media nodes (the preview's WHEP and HLS, the studio's WHIP); the policy
  // is read with the page, so a page opened after a node was added may reach it. The embeddable player's
  // page (/play/…) is made to be framed by any site; every other page refuses to be.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      done(null, payload);
      return;
    }
    const embeddable = isEmbeddablePage(request.url);
    const pagePolicy = embeddable ? policy.replace("frame-ancestors 'none'", 'frame-ancestors *') : policy;
    if (embeddable) {
      reply.raw.removeHeader('x-frame-options');
      reply.header('content-security-policy', pagePolicy);
    }
    if (!connectOrigins) {
      done(null, payload);
      return;
    }
    connectOrigins().then((origins) => {
      // The preview's seek bar shows the nodes' storyboard sheets (images) too.
      const nodes = origins.join(' ');
      if (origins.length > 0)
        reply.header(
          'content-security-policy',
          pagePolicy
            .replace("connect-src 'self'", `connect-src 'self' ${nodes}`)
            .replace("img-src 'self' data: blob:", `img-src 'self' data: blob: ${nodes}`),
        );
      done(null, payload);
    }, done);
  });
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
    done();
  });

  const isApi = (request: FastifyRequest) => request.url.startsWith(`${API_BASE}/`);

  /** Whether a request may be forged: a non-GET API request with the cookie, without an API key, must echo it. */
  const isForged = (request: FastifyRequest) => {
    if (!isApi(request) || SAFE_METHODS.has(request.method)) return false;
    // A public write acting for no account (the viewer beacon, sent by sendBeacon, which sets no header).
    if (request.routeOptions.config?.exemptFromAntiForgery) return false;
    // An API key is sent by a script, never by the browser on its own: no forged request can carry one.
    if (request.headers.authorization?.startsWith(`Bearer ${API_KEY_PREFIX}`)) return false;
    const cookieToken = request.cookies[ANTI_FORGERY_COOKIE];
    if (cookieToken === undefined) return false;
    const headerToken = request.headers[ANTI_FORGERY_HEADER.toLowerCase()];
    return typeof headerToken !== 'string' || !tokens.isValid(cookieToken) || !sameToken(cookieToken, headerToken);
  };
  // The hooks every request runs are in callback form: an async hook costs a promise and a microtask turn.
  app.addHook('onRequest', (request, _reply, done) => {
    done(isForged(request) ? forbidden('Missing or invalid anti-forgery token') : undefined);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    // A route may name its own for its successful answers (addRoute's cacheControl option), e.g.
    // `no-cache` for snapshot images; errors stay no-store.
    if (isApi(request)) {
      const own = reply.statusCode < 400 ? request.routeOptions.config?.cacheControl : undefined;
      reply.header('cache-control', own ?? 'no-store');
    }
    // Only a request without a bearer token gets the cookie: the console has it from its page load, before
    // it holds a token, and a script calling with a token never sends it back. Issuing it on every such
    // answer cost a tenth of a cached whoami. (cookies is unset when an earlier onRequest hook answered
    // before the cookie parser ran.)
    if (request.headers.authorization === undefined && !tokens.isValid(request.cookies?.[ANTI_FORGERY_COOKIE])) {
      reply.setCookie(ANTI_FORGERY_COOKIE, tokens.issue(), {
        path: '/',
        sameSite: 'strict',
        secure: request.protocol === 'https',
        httpOnly: false,
      });
    }
    done(null, payload);
  });
}
