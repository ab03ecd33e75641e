import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { JSON_ANSWER_HEADERS } from './answer-headers.js';
import { toApiError } from './error-mapping.js';
import { isBoundByProgress } from './progress-bounded-bodies.js';

// Errors that happen before a request reaches a route, and so before any hook or the error
// handler runs: Fastify server options (src/http/server-options.ts), not plugins. They give
// the answer the envelope and the headers the hooks would have added.

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
  // An import upload is bounded by its progress (src/http/progress-bounded-bodies.ts): the
  // connection stays open, and Node does not report this request's time again.
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && isBoundByProgress(socket)) return;
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
