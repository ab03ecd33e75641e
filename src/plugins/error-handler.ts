import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';
import { toApiError } from '../http/error-mapping.js';

// One place shapes every error into the envelope of the API (src/http/error-mapping.ts) and
// answers a path nothing serves with a 404 in the same envelope.

/** Seconds a 503 asks the client to wait before trying again. */
export const RETRY_AFTER_S = 2;

export default fp(
  async function errorHandler(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const apiError = toApiError(error, {
        bodyLimit: request.routeOptions?.bodyLimit,
        currency: request.project?.currency,
      });
      // An unreachable database is expected now and then and says nothing new per request:
      // one line, no stack. Anything else 5xx is a fault of ours, logged whole.
      if (apiError.status === 503)
        request.log.warn({ code: (error as { code?: string }).code, reason: error.message }, 'storage unavailable');
      else if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
      if (apiError.status === 401) reply.header('www-authenticate', 'Bearer');
      // The database is down, or busy with another write past the wait a request is given:
      // when to try again (CONTRACT 19: a write is answered, never left waiting).
      if (apiError.status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', RETRY_AFTER_S);
      return reply.code(apiError.status).send(apiError.toBody());
    });

    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send(new ApiError(404, `no resource at ${request.method} ${request.url.split('?')[0]}`).toBody());
    });
  },
  { name: 'error-handler' },
);
