import type { FastifyInstance, FastifyRequest, preSerializationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { addRouteHook } from '../http/route-hooks.js';
import { PROJECT_ROUTES } from './project-scope.js';

// What a public answer holds, named for a shared cache in front (docs/API.md, "CDN
// headers"; docs/DEPLOY.md): `Surrogate-Key` (Fastly, nginx; space-separated) and `Cache-Tag`
// (Cloudflare; comma-separated) list `project-<id>`, the resource list the route belongs to
// and `product-<id>` for every product in the body, so that a change purges exactly the
// answers that show it. Private answers are never stored by a shared cache and get none.
//
// The names are taken from the answer object before it is serialised, and the answer cache
// keeps them beside the bytes (answer-cache.ts depends on this plugin), so a hit needs no
// parsing either.

/** `/v2/projects/:project_id/products/:product` -> `products` */
const LIST_SEGMENT = PROJECT_ROUTES.split('/').length;

export default fp(
  async function cdnTags(app: FastifyInstance) {
    app.decorateRequest('cacheTags', null);

    const collect: preSerializationHookHandler<unknown> = (request, reply, payload, done) => {
      if (reply.statusCode === 200) tagProducts(request, productIds(payload));
      done(null, payload);
    };
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!route.url.startsWith(`${PROJECT_ROUTES}/`) || route.config?.methodNotAllowed) return;
      if (methods.includes('GET') || methods.includes('HEAD')) addRouteHook(route, 'preSerialization', collect);
    });

    // On the 304 too: it carries the headers the 200 would (RFC 9110 15.4.5).
    app.addHook('onSend', (request, reply, payload, done) => {
      const tags = request.cacheTags;
      if (tags !== null && !request.isPrivate && (reply.statusCode === 200 || reply.statusCode === 304)) {
        reply.header('surrogate-key', tags.join(' '));
        reply.header('cache-tag', tags.join(','));
      }
      done(null, payload);
    });
  },
  { name: 'cdn-tags', dependencies: ['project-scope'] },
);

/**
 * Names what a public answer holds, `productIds` the products in its body; a handler that
 * sends JSON it serialised itself (the products routes: past the preSerialization hook)
 * calls it.
 */
export function tagProducts(request: FastifyRequest, productIds: readonly number[]): void {
  if (request.isPrivate) return;
  const list = request.routeOptions.url!.split('/')[LIST_SEGMENT];
  const tags = [`project-${request.project.id}`, list];
  if (list === 'products') for (const id of productIds) tags.push(`product-${id}`);
  request.cacheTags = tags;
}

/** The ids of a product answer: one product, or a page of them under `data`. */
function productIds(payload: unknown): number[] {
  const answer = payload as { id?: number; data?: { id: number }[] };
  if (Array.isArray(answer.data)) return answer.data.map((product) => product.id);
  return typeof answer.id === 'number' ? [answer.id] : [];
}
