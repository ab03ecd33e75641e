import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Every answer carries X-Request-Id, and every log line of the request carries the same id
// (pino's reqId), so that a client's report can be matched with the server's logs. The id
// itself is made by `requestId` (src/http/server-options.ts) before any hook runs.

export default fp(
  async function requestIdHeader(app: FastifyInstance) {
    // Hooks on every request are plain callbacks: an async hook costs a promise and a turn
    // of the microtask queue, which the benchmark measured on the hottest path.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
    // Errors raised before onRequest (a malformed URL, say) still carry the id.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', request.id);
      done(null, payload);
    });
  },
  { name: 'request-id' },
);
