import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Headers fitting a JSON API. Every answer: no MIME sniffing, no referrer, no framing
// (X-Frame-Options: DENY; where a page has its own CSP `frame-ancestors`, as /docs does,
// browsers follow that instead). JSON
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
