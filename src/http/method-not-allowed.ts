import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

// Fastify answers 404 to a known path with a method it does not serve; the contract wants
// 405 with an Allow header. Routes are collected as they are added, and each path then gets
// one catch-all route for the methods it lacks.

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export function collectRoutes(app: FastifyInstance): Map<string, Set<string>> {
  const byUrl = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.config && (route.config as { methodNotAllowed?: boolean }).methodNotAllowed) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = byUrl.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m);
    byUrl.set(route.url, set);
  });
  return byUrl;
}

export async function addMethodNotAllowedRoutes(app: FastifyInstance, byUrl: Map<string, Set<string>>): Promise<void> {
  // In a context of their own that takes any body unread: a PUT with text/plain is a 405,
  // not a 415 about a body nobody would read.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    addRoutes(scope, byUrl);
  });
}

function addRoutes(app: FastifyInstance, byUrl: Map<string, Set<string>>): void {
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
