import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Headers fitting a JSON API. Every answer: no MIME sniffing, no framing, no referrer. JSON
// answers (and empty ones) also get a CSP that allows nothing at all: a JSON body is never
// a document to render, so if a browser is tricked into showing one, nothing in it runs.
// HTML and script answers (the /docs page, /toolkit.js) keep their own policy, if any.

export const STRICT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The headers of every JSON answer, for the few answers that bypass the hooks. */
export const JSON_ANSWER_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': STRICT_CSP,
};

export default fp(
  async function securityHeaders(app: FastifyInstance) {
    app.addHook('onSend', async (_request, reply, payload) => {
      const { 'content-security-policy': csp, ...always } = JSON_ANSWER_HEADERS;
      reply.headers(always);
      const type = String(reply.getHeader('content-type') ?? '');
      if ((type === '' || type.startsWith('application/json')) && !reply.hasHeader('content-security-policy')) {
        reply.header('content-security-policy', csp);
      }
      reply.removeHeader('x-powered-by');
      return payload;
    });
  },
  { name: 'security-headers' },
);
