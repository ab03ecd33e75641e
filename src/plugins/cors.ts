import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Shops call the public part straight from browser pages of any origin (docs/API.md, "HTTP
// behaviour"): every answer allows any origin, and browser code may read the ETag, Location,
// Storefront-Version, the rate-limit headers, the request id and WWW-Authenticate. No cookies
// are used, so none are allowed. A preflight allows the methods its path serves (DELETE on a
// webhook endpoint, say), as the 405 answers' Allow header lists them. /metrics is read by
// scrapers, not browsers: it carries no CORS header at all (its route says `cors: false`).

const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'If-None-Match',
  'If-Match',
  'Idempotency-Key',
  'Prefer',
  'Storefront-Version',
  'X-Request-Id',
];
const EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Storefront-Version',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'Retry-After',
  'X-Request-Id',
  'Idempotent-Replayed',
  // so that browser code can read why a 401 came (it says Bearer)
  'WWW-Authenticate',
];
const DEFAULT_METHODS = ['GET', 'HEAD', 'POST'];
/** A project's own path, whose DELETE (the admin API) needs Confirm-Delete. */
const PROJECT_PATH = /^\/v2\/projects\/[^/]+\/?$/;
const NO_CORS = new Set(['/metrics', '/metrics/']);

const base: FastifyCorsOptions = {
  origin: '*',
  allowedHeaders: ALLOWED_HEADERS,
  exposedHeaders: EXPOSED_HEADERS,
  maxAge: 86400,
  strictPreflight: false,
};

/** Route patterns (`/v2/projects/:project_id/webhooks/:endpoint_id`) as regular expressions. */
function matcher(url: string): RegExp {
  const parts = url
    .replace(/\/$/, '')
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('/')}/?$`);
}

export default fp(
  async function corsPolicy(app: FastifyInstance) {
    let routes: Array<{ pattern: RegExp; methods: string[] }> | undefined;
    const methodsOf = (path: string): string[] => {
      // Built on first use: every route exists by then (servedMethods collects them).
      const served: ReadonlyMap<string, ReadonlySet<string>> = app.servedMethods ?? new Map<string, Set<string>>();
      routes ??= [...served]
        .filter(([url]) => !url.includes('*'))
        .map(([url, methods]) => ({
          pattern: matcher(url),
          methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => methods.has(m)),
        }));
      return routes.find((r) => r.pattern.test(path))?.methods ?? DEFAULT_METHODS;
    };
    // Static options (a delegator would add `Vary: Origin` to every answer, for nothing: the
    // origin is always *). The preflight's methods are then set per path as it goes out.
    await app.register(cors, { ...base, methods: DEFAULT_METHODS });
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.method !== 'OPTIONS') return done(null, payload);
      const path = request.url.split('?')[0];
      if (NO_CORS.has(path)) {
        for (const name of Object.keys(reply.getHeaders()))
          if (name.startsWith('access-control-')) reply.removeHeader(name);
      } else if (reply.hasHeader('access-control-allow-methods')) {
        reply.header('access-control-allow-methods', methodsOf(path).join(', '));
        if (PROJECT_PATH.test(path))
          reply.header('access-control-allow-headers', [...ALLOWED_HEADERS, 'Confirm-Delete'].join(', '));
      }
      done(null, payload);
    });
  },
  { name: 'cors' },
);
