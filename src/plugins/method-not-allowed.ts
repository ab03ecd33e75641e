import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';

// Fastify answers 404 to a known path with a method it does not serve; the contract wants
// 405 with an Allow header. `servedMethods`, registered before any route, collects the
// routes as they are added; `methodNotAllowed`, registered after the last one, then gives
// each path one catch-all route for the methods it lacks.

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const servedMethods = fp(
  async function servedMethods(app: FastifyInstance) {
    const byUrl = new Map<string, Set<string>>();
    app.decorate('servedMethods', byUrl);
    app.addHook('onRoute', (route) => {
      if (route.config?.methodNotAllowed) return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const set = byUrl.get(route.url) ?? new Set<string>();
      for (const m of methods) set.add(m);
      byUrl.set(route.url, set);
    });
  },
  { name: 'served-methods' },
);

export const methodNotAllowed = fp(
  async function methodNotAllowed(app: FastifyInstance) {
    // In a context of their own that takes any body unread: a PUT with text/plain is a 405,
    // not a 415 about a body nobody would read.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
      addRoutes(scope, app.servedMethods);
    });
  },
  { name: 'method-not-allowed', dependencies: ['served-methods'] },
);

function addRoutes(app: FastifyInstance, byUrl: ReadonlyMap<string, ReadonlySet<string>>): void {
  for (const [url, served] of byUrl) {
    if (url === '*' || url.endsWith('*')) continue;
    const missing = METHODS.filter((m) => !served.has(m));
    if (missing.length === 0) continue;
    const allow = [...METHODS.filter((m) => served.has(m)), 'OPTIONS'].join(', ');
    app.route({
      method: missing,
      url,
      config: { methodNotAllowed: true },
      handler: async (request, reply) => {
        reply.header('allow', allow);
        throw new ApiError(405, `${request.method} is not allowed here; use ${allow}`);
      },
    });
  }
}
