import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { JSON_ANSWER_HEADERS } from '../plugins/security-headers.js';
import { validationError } from './validation.js';

// One place shapes every error into the envelope of the API. Nothing a client sees ever
// carries a stack trace, SQL text or a file path: unexpected errors are logged and answered
// with a fixed message.

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error);
    // An unreachable database is expected now and then and says nothing new per request:
    // one line, no stack. Anything else 5xx is a fault of ours, logged whole.
    if (apiError.status === 503)
      request.log.warn({ code: (error as { code?: string }).code, reason: error.message }, 'storage unavailable');
    else if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    if (apiError.status === 401) reply.header('www-authenticate', 'Bearer');
    return reply.code(apiError.status).send(apiError.toBody());
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(new ApiError(404, `no resource at ${request.method} ${request.url.split('?')[0]}`).toBody());
  });
}

/**
 * Errors Fastify raises before routing (a URL that is not valid percent-encoding, say) skip
 * the error handler; this gives them the envelope too. Installed as `frameworkErrors`.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError(404, 'not found') // longer than any id or handle: names nothing
      : error.code === 'FST_ERR_BAD_URL'
        ? new ApiError(400, 'the URL is not valid (bad percent-encoding)')
        : toApiError(error);
  // No hook runs for these answers, so they get the headers of every answer here.
  reply.headers({
    ...JSON_ANSWER_HEADERS,
    'access-control-allow-origin': '*',
    'cache-control': 'public, no-cache',
    'x-request-id': request.id,
  });
  reply.code(apiError.status).send(apiError.toBody());
}

/**
 * Errors of the connection itself (headers over MAX_HEADER_BYTES, a request slower than
 * REQUEST_TIMEOUT_MS, bytes that are not HTTP) happen before Fastify has a request; they
 * are written straight to the socket, in the same envelope, and the connection is closed.
 * Installed as `clientErrorHandler`.
 */
export function clientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError(431, 'request headers are too large')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError(408, 'the request did not arrive in time')
        : new ApiError(400, 'the request is not valid HTTP');
  const body = JSON.stringify(apiError.toBody());
  const reason = STATUS_CODES[apiError.status] ?? '';
  if (socket.writable) {
    const headers = [
      `Content-Type: application/json; charset=utf-8`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Access-Control-Allow-Origin: *',
      'Cache-Control: public, no-cache',
      'Connection: close',
    ];
    socket.write(`HTTP/1.1 ${apiError.status} ${reason}\r\n${headers.join('\r\n')}\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

export function toApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) return validationError(error.validation, error.validationContext ?? 'request');
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'request body is larger than 64 KiB');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'request body must be sent as Content-Type: application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'Content-Length does not match the body');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'request body is empty; send a JSON object', [{ field: 'body', message: 'is empty' }]);
  }
  // Fastify reports broken JSON and prototype-poisoning keys (refused by secure-json-parse)
  // with the same error, so one message names both.
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    const message = 'is not valid JSON, or holds a __proto__ or constructor.prototype key';
    return new ApiError(400, `request body ${message}`, [{ field: 'body', message }]);
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
// shutdown classes (08, 57P0x), too_many_connections (53300), a statement timeout (57014),
// and pg's own messages that carry no code (pool connect timeout, a connection ended
// mid-query, a client-side query timeout). SQLITE_BUSY* is a lock held past busy_timeout.
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
