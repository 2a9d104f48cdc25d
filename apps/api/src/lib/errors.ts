/** A failure the client caused or may see; the error handler turns it into `{message, code}`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new AppError(400, code, message);
/** A body field a rule beyond its schema refuses, answered as the schema's own refusals are (`{errors: [{path}]}`). */
export const invalidField = (path: string, message: string) =>
  Object.assign(new AppError(400, 'VALIDATION', `Invalid request: body.${path}: ${message}`), {
    errors: [{ path: `body.${path}`, message }],
  });
export const unauthorized = (message = 'Authentication required') => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'Not permitted') => new AppError(403, 'FORBIDDEN', message);
export const notFound = (what: string) => new AppError(404, 'NOT_FOUND', `${what} not found`);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, code, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 'TOO_MANY_REQUESTS', message, { 'retry-after': String(retryAfterSeconds) });
