import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The fake's HTTP basics: the service's error body `{statusCode, timestamp, path, message, error}` (a NestJS
 * exception), JSON answers and request bodies.
 */

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  413: 'Payload Too Large',
  500: 'Internal Server Error',
};

/** Thrown by a handler: answered as the service's error body. */
export class ServiceError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string | string[],
  ) {
    super(Array.isArray(detail) ? detail.join('; ') : detail);
  }
}

export const badRequest = (message: string | string[]): ServiceError => new ServiceError(400, message);
export const unauthorized = (message: string): ServiceError => new ServiceError(401, message);
export const notFound = (message: string): ServiceError => new ServiceError(404, message);

export function errorBody(error: ServiceError, path: string, timestamp: string): Record<string, unknown> {
  return {
    statusCode: error.statusCode,
    timestamp,
    path,
    message: error.detail,
    error: REASONS[error.statusCode] ?? 'Error',
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** The service accepts bodies up to 20 MB. */
const BODY_LIMIT = 20 * 1024 * 1024;

/** The parsed JSON body; `{}` when there is none (the DTO then reports every missing field). */
export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new ServiceError(413, 'request entity too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('Unexpected token in JSON body');
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A canonical ObjectId: 24 lower-case hex characters. */
export const isObjectId = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);
