import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { etagOf, ifNoneMatchHits } from '../http/etag.js';

// Cache-Control and ETag for every answer (docs/API.md, "HTTP behaviour"). Answers that
// depend on a key are private and never stored; everything else may be stored but must be
// revalidated, which the ETag makes cheap: a matching If-None-Match gets an empty 304.
//
// Its onSend must run after the answer cache's (which stores the 200 answer and sets its
// ETag): the dependency on 'answer-cache' makes Fastify refuse to start in the other order.

export default fp(
  async function httpCaching(app: FastifyInstance) {
    // A plain callback, not an async hook: it runs on every answer (see request-id.ts).
    app.addHook('onSend', (request, reply, payload, done) => {
      reply.header('cache-control', request.isPrivate ? 'private, no-store' : 'public, no-cache');
      if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload)))
        return done(null, payload);
      // An answer of the answer cache comes with the ETag stored beside it.
      const etag = (reply.getHeader('etag') as string | undefined) ?? etagOf(payload);
      reply.header('etag', etag);
      if (
        (request.method === 'GET' || request.method === 'HEAD') &&
        ifNoneMatchHits(request.headers['if-none-match'], etag)
      ) {
        reply.code(304);
        reply.removeHeader('content-length');
        return done(null, '');
      }
      done(null, payload);
    });
  },
  { name: 'http-caching', dependencies: ['project-scope', 'answer-cache'] },
);
