import { STATUS_CODES } from 'node:http';

/**
 * The service's error answers. Nest's HttpExceptions carry `{statusCode, message, error}`; the service's global
 * filter adds `timestamp` and `path` (the request URL, query included) and, for 500s, an `errorId`.
 */

export class EmulatorHttpError extends Error {
  readonly status: number;
  readonly body: { message: string | string[]; error?: string; [key: string]: unknown };
  readonly headers: Record<string, string>;

  /**
   * `error` is the reason phrase Nest adds for exceptions built from a message (BadRequestException('…'));
   * pass `null` for exceptions built from a bare string response (the throttler's 429).
   */
  constructor(
    status: number,
    message: string | string[],
    options: {
      error?: string | null;
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(Array.isArray(message) ? message.join('; ') : message);
    this.name = 'EmulatorHttpError';
    this.status = status;
    const error = options.error === undefined ? STATUS_CODES[status] : options.error;
    this.body = { message, ...(error === null || error === undefined ? {} : { error }), ...options.extra };
    this.headers = options.headers ?? {};
  }
}

/** The body the service sends: `{statusCode, timestamp, path}` and the exception's own fields. */
export function buildErrorBody(error: EmulatorHttpError, path: string, now: number) {
  return { statusCode: error.status, timestamp: new Date(now).toISOString(), path, ...error.body };
}

export const badRequest = (message: string | string[]): EmulatorHttpError =>
  new EmulatorHttpError(400, message);
export const unauthorized = (message: string): EmulatorHttpError => new EmulatorHttpError(401, message);
export const notFound = (message: string): EmulatorHttpError => new EmulatorHttpError(404, message);

export const INTERNAL_ERROR_MESSAGE =
  'Internal server error, contact support and provide them with the errorId';
export const RATE_LIMIT_MESSAGE = 'API rate limit exceeded';
