import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors.js';

const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Unsupported content type; send application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'Request body must not be empty JSON' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Request body is not valid JSON' },
};

/** One error body for every failure: `{message, code?, errors?}`; a 5xx never carries details. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.statusCode).headers(error.headers).send({ message: error.message, code: error.code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((issue) => ({
        path: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
        message: issue.message,
      }));
      const first = errors[0];
      return reply.code(400).send({
        message: first ? `Invalid request: ${first.path}: ${first.message}` : 'Invalid request',
        code: 'VALIDATION',
        errors,
      });
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return reply.code(known.status).send({ message: known.message, code: error.code });
    if (error instanceof SyntaxError) {
      return reply.code(400).send({ message: 'Request body is not valid JSON', code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ message: error.message, ...(error.code ? { code: error.code } : {}) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: 'Internal server error', code: 'INTERNAL' });
  });

  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: 'NOT_FOUND' }),
  );
}
