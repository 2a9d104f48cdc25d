import type { ErrorBody } from '@streamcloud/contract';

export type FieldError = NonNullable<ErrorBody['errors']>[number];

export interface ApiErrorInit {
  /** HTTP status; 0 when the request never got an answer (network failure, timeout). */
  status: number;
  /** The server's `message`, when its error body had one. */
  message?: string | undefined;
  code?: string | undefined;
  errors?: FieldError[] | undefined;
  cause?: unknown;
  /** What was asked, `METHOD url`, for logs. */
  request?: string | undefined;
}

/** The one error type the API client throws. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The server's own `message`, or undefined when it sent none. */
  readonly serverMessage: string | undefined;
  readonly code: string | undefined;
  readonly errors: FieldError[] | undefined;
  readonly request: string | undefined;

  constructor({ status, message, code, errors, cause, request }: ApiErrorInit) {
    super(message ?? (status === 0 ? 'Network failure' : `Request failed with status ${status}`), { cause });
    this.status = status;
    this.serverMessage = message;
    this.code = code;
    this.errors = errors;
    this.request = request;
  }

  /** For logs: what was asked and how it ended, e.g. `ApiError: POST /api/v1/node/reports answered 400: …`. */
  override toString(): string {
    if (!this.request) return `${this.name}: ${this.message}`;
    const outcome = this.status === 0 ? 'got no answer' : `answered ${this.status}`;
    const reason = this.cause instanceof Error ? ` (${this.cause.message})` : '';
    return `${this.name}: ${this.request} ${outcome}: ${this.message}${reason}`;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The answer status of a failed call: undefined for anything that is not an ApiError. */
export function errorStatus(error: unknown): number | undefined {
  return isApiError(error) ? error.status : undefined;
}

/** The server's message when it sent one, else the given fallback text. */
export function messageOr(error: unknown, fallback: string): string {
  return (isApiError(error) && error.serverMessage) || fallback;
}
