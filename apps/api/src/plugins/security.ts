import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import { ANTI_FORGERY_COOKIE, ANTI_FORGERY_HEADER, API_BASE } from '@streamcloud/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../lib/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Anti-forgery tokens are `random.hmac(random)`, so a cookie planted by someone else does not verify. */
class AntiForgeryTokens {
  constructor(private readonly secret: string) {}

  issue(): string {
    const nonce = randomBytes(24).toString('base64url');
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

/**
 * Security headers on every response, `no-store` on API answers, and the double-submit anti-forgery
 * check: a non-GET API request that carries the cookie must echo it in the header.
 */
export async function registerSecurity(app: FastifyInstance, secret: string): Promise<void> {
  const tokens = new AntiForgeryTokens(secret);
  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });

  const isApi = (request: FastifyRequest) => request.url.startsWith(`${API_BASE}/`);

  app.addHook('onRequest', async (request) => {
    if (!isApi(request) || SAFE_METHODS.has(request.method)) return;
    const cookieToken = request.cookies[ANTI_FORGERY_COOKIE];
    if (cookieToken === undefined) return;
    const headerToken = request.headers[ANTI_FORGERY_HEADER.toLowerCase()];
    if (typeof headerToken !== 'string' || !tokens.isValid(cookieToken) || !sameToken(cookieToken, headerToken)) {
      throw forbidden('Missing or invalid anti-forgery token');
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // A route may name its own for its successful answers (addRoute's cacheControl option), e.g.
    // `no-cache` for snapshot images; errors stay no-store.
    if (isApi(request)) {
      const own = reply.statusCode < 400 ? request.routeOptions.config?.cacheControl : undefined;
      reply.header('cache-control', own ?? 'no-store');
    }
    // cookies is unset when an earlier onRequest hook answered before the cookie parser ran.
    if (!tokens.isValid(request.cookies?.[ANTI_FORGERY_COOKIE])) {
      reply.setCookie(ANTI_FORGERY_COOKIE, tokens.issue(), {
        path: '/',
        sameSite: 'strict',
        secure: request.protocol === 'https',
        httpOnly: false,
      });
    }
    return payload;
  });
}
