import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_BASE } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI 3.1 document, generated from the contract's zod schemas, and a page to browse it. */
export async function registerOpenApi(
  app: FastifyInstance,
  extra: { webhooks?: Record<string, unknown>; tags?: { name: string; description: string }[] } = {},
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Streamcloud control-plane API',
        version: '1.0.0',
        description:
          'Errors answer `{message, code?, errors?}`. Lists that page answer the total in `X-Total-Count`. ' +
          'Non-GET requests that carry the `XSRF-TOKEN` cookie must echo it in the `X-XSRF-TOKEN` header ' +
          '(unless they present an API key).',
      },
      ...(extra.webhooks ? { webhooks: extra.webhooks } : {}),
      // The tags of the modules' routes, as their manifests describe them.
      ...(extra.tags?.length ? { tags: extra.tags } : {}),
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          nodeToken: { type: 'http', scheme: 'bearer', description: 'A media node token' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'sck_…',
            description:
              "An account's API key (`Authorization: Bearer sck_…`), made under the account's settings: acts as " +
              'the account within its scope (`read`: GET only; `write`: all but managing credentials and sessions), ' +
              'limited per key and minute (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`; 429 past it); ' +
              'exempt from the anti-forgery rule.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: false });
  app.get(`${API_BASE}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}
