import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';
import { parseJsonBody } from '../http/json-body.js';
import { coerceParams, coerceQuery, rejectNul } from '../http/validation.js';

// Before the schemas judge a request (docs/API.md, "Conventions" and "Errors"): query strings are converted
// strictly (plain digits, exact true/false; a parameter given twice is a 400), no text may
// hold a NUL or an unpaired surrogate, and a route that reads a body needs a Content-Type.

export default fp(
  async function strictInput(app: FastifyInstance) {
    // JSON is the only body this API reads: without Fastify's text/plain parser, any other
    // Content-Type is a 415 rather than a string that fails validation.
    app.removeContentTypeParser('text/plain');
    // Bytes, not a string: the body is decoded strictly as UTF-8 (src/http/json-body.ts).
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      try {
        done(null, parseJsonBody(request, body as Buffer));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    // A plain callback, not an async hook: it runs on every request (see request-id.ts).
    app.addHook('preValidation', (request, _reply, done) => {
      try {
        coerceQuery(request);
        coerceParams(request);
        rejectNul(request.body, 'body');
        if (request.routeOptions.schema?.body && !request.headers['content-type']) {
          return void missingBody(request).then(done, done);
        }
      } catch (error) {
        return done(error as Error);
      }
      done();
    });
  },
  { name: 'strict-input' },
);

// A path naming no record is a 404 whatever the body (issue 40): its segments are checked
// against the route's params schema, then the route's `exists`, before the missing body's 415.
async function missingBody(request: FastifyRequest): Promise<Error> {
  const schema = request.routeOptions.schema?.params;
  if (schema && !request.validateInput(request.params, 'params')) return notFound(request);
  const exists = request.routeOptions.config.exists;
  if (exists && !(await exists(request))) return notFound(request);
  return new ApiError(415, 'request body must be sent as Content-Type: application/json');
}

function notFound(request: FastifyRequest): ApiError {
  return new ApiError(404, `${request.url.split('?')[0]} not found`);
}
