/**
 * Whether an error means the database cannot be reached right now (refused, reset, shut down, starting up,
 * a connection that ended under a query), as opposed to a fault of the query or of our code: the API then
 * answers 503 with Retry-After, not 500, and recovers by itself once the server is back (pg's pool connects
 * anew on the next query).
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);
/** SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now (the server is starting or stopping). */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
/** What pg says when a connection ends under a query or cannot be opened in time (errors without a code). */
const CONNECTION_MESSAGES =
  /^Connection terminated|^timeout exceeded when trying to connect|Client has encountered a connection error/;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SHUTDOWN_STATES.has(code) || code.startsWith('08')))
      return true;
    if (CONNECTION_MESSAGES.test(cause.message)) return true;
    // Several addresses tried (localhost: ::1 and 127.0.0.1), each refused.
    if (cause instanceof AggregateError && cause.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

/** Seconds a client waits before trying again while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;
