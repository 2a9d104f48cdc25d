import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.js';
import { AppError } from '../lib/errors.js';

/** The longest path segment the router takes (Fastify's `maxParamLength`); ids and names are far shorter. */
export const MAX_PARAM_LENGTH = 100;

const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Unsupported content type; send application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'Request body must not be empty JSON' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Request body is not valid JSON' },
  // The router's own refusals (Fastify's frameworkErrors), before any route or hook runs.
  FST_ERR_BAD_URL: { status: 400, message: 'The URL is not valid: a path segment has a malformed %-escape' },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    message: `The URL is too long: a path segment may have at most ${MAX_PARAM_LENGTH} characters`,
  },
};

/** What Node's HTTP parser refuses before Fastify sees a request, answered in the same shape. */
const CLIENT_ERRORS: Record<string, { status: number; reason: string; message: string; code: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    message: 'The request took too long to arrive',
    code: 'REQUEST_TIMEOUT',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    message: 'The request line and headers are too large (at most 16 KB)',
    code: 'HEADERS_TOO_LARGE',
  },
};
const MALFORMED = { status: 400, reason: 'Bad Request', message: 'The HTTP request is malformed', code: 'BAD_REQUEST' };

/** One error body for every failure: `{message, code?, errors?}`; a 5xx never carries details. */
function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    const errors = 'errors' in error ? { errors: error.errors } : {};
    return reply
      .code(error.statusCode)
      .headers(error.headers)
      .send({ message: error.message, code: error.code, ...errors });
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
  if (isDatabaseUnavailable(error)) {
    request.log.warn(`request failed: the database is unreachable (${error.message})`);
    return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({
      message: 'The service is briefly unavailable: try again in a few seconds',
      code: 'DATABASE_UNAVAILABLE',
    });
  }
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send({ message: 'Internal server error', code: 'INTERNAL' });
}

/** Fastify's `frameworkErrors` (a bad or too long URL, found by the router before any route): the API's shape. */
export const frameworkErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
  answerError(error, request, reply);

/** Fastify's `clientErrorHandler` (a request Node's parser refused): the API's shape on the raw socket. */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, reason, message, code } = (error.code && CLIENT_ERRORS[error.code]) || MALFORMED;
  const body = JSON.stringify({ message, code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(answerError);

  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: 'NOT_FOUND' }),
  );
}
