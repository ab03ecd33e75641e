import type { FastifyError } from 'fastify';
import { ApiError } from '../errors.js';
import { BODY_LIMIT } from './body-limits.js';
import { validationError } from './validation.js';

// Every error, whatever raised it, as one of the API's errors. Nothing a client sees ever
// carries a stack trace, SQL text or a file path: an unexpected error becomes a 500 with a
// fixed message (the error handler, src/plugins/error-handler.ts, logs it whole).

/** What the request adds to an error's message: its route's body limit, its project's currency. */
export interface ErrorContext {
  bodyLimit?: number;
  currency?: string;
}

export function toApiError(error: FastifyError, context: ErrorContext = {}): ApiError {
  if (error instanceof ApiError) return error;
  // A path segment that breaks its pattern names nothing that could exist: 404, as for an
  // unknown id (docs/API.md, "Conventions"); the patterns are there to inform tools.
  if (error.validation && error.validationContext === 'params') {
    const { instancePath, data } = error.validation[0] as { instancePath: string; data?: unknown };
    return new ApiError(404, `${instancePath.slice(1) || 'path'} ${JSON.stringify(data)} not found`);
  }
  if (error.validation)
    return validationError(error.validation, error.validationContext ?? 'request', context.currency);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, `request body is larger than ${sizeText(context.bodyLimit ?? BODY_LIMIT)}`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'request body must be sent as Content-Type: application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'Content-Length does not match the body');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'request body is empty; send a JSON object', [{ field: 'body', message: 'is empty' }]);
  }
  // Bodies are parsed by src/http/json-body.ts, which raises ApiErrors; this covers a parser
  // of Fastify's own, should one ever run.
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new ApiError(400, 'request body is not valid JSON', [{ field: 'body', message: 'is not valid JSON' }]);
  }
  if (isStorageUnavailable(error))
    return new ApiError(503, 'storage is unavailable; try again shortly', undefined, { cause: error });
  const status = error.statusCode;
  if (status && status >= 400 && status < 500) {
    if (status === 404) return new ApiError(404, 'not found');
    if (status === 413) return new ApiError(413, 'request is too large');
    if (status === 415) return new ApiError(415, 'unsupported media type');
    return new ApiError(400, 'bad request');
  }
  return new ApiError(500, 'internal error', undefined, { cause: error });
}

// What node-postgres and better-sqlite3 really throw when the database cannot answer now:
// socket errors (the server is down or the network cut), PostgreSQL's connection and
// shutdown classes (08, 57P0x), too_many_connections (53300), a statement timeout (57014), a
// write's lock_timeout (55P03: another write held the lock longer than a request waits),
// and pg's own messages that carry no code (pool connect timeout, a connection ended
// mid-query, a client-side query timeout). SQLITE_BUSY* is a lock held past busy_timeout, or the
// writer thread held past WRITE_WAIT_MS (SQLITE_BUSY_WRITER, src/db/sqlite-threads.ts).
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '55P03',
  '53300',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connect ECONNREFUSED|Client has encountered a connection error|Client was closed and is not queryable/i;

/** Errors that mean "the database cannot be reached right now", not "this request is wrong". */
export function isStorageUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: string; errors?: unknown[] } | undefined;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('SQLITE_BUSY'))) return true;
  if (UNAVAILABLE_MESSAGES.test(e.message ?? '')) return true;
  // Connecting to a name with several addresses fails with an AggregateError of each try.
  return Array.isArray(e.errors) && e.errors.some(isStorageUnavailable);
}

/** 65536 -> "64 KiB", 1048576 -> "1 MiB". */
function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;
}
