import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { JSON_ANSWER_HEADERS } from '../http/answer-headers.js';

// The headers of src/http/answer-headers.ts on every answer. HTML and script answers (the
// /docs page, /toolkit.js) keep their own policy, if any.

export default fp(
  async function securityHeaders(app: FastifyInstance) {
    const { 'content-security-policy': csp, 'x-frame-options': frames, ...always } = JSON_ANSWER_HEADERS;
    // A plain callback, not an async hook: it runs on every answer (see request-id.ts).
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.headers(always);
      reply.removeHeader('x-powered-by');
      // A page's own policy (its framing rule included) is kept.
      if (!reply.hasHeader('content-security-policy')) {
        const type = String(reply.getHeader('content-type') ?? '');
        if (type === '' || type.startsWith('application/json')) reply.header('content-security-policy', csp);
        reply.header('x-frame-options', frames);
      }
      done(null, payload);
    });
  },
  { name: 'security-headers' },
);
