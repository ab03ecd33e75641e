import type { RouteOptions } from 'fastify';

// Plugins that act on some routes only add their hook to those routes, from an onRoute hook
// (src/plugins/project-scope.ts, answer-cache.ts): the other routes pay nothing for it.

type HookName = 'onRequest' | 'preHandler' | 'preSerialization';
type HookOf<N extends HookName> = Extract<NonNullable<RouteOptions[N]>, (...args: never[]) => unknown>;

/**
 * Adds `hook` to the route's own hooks of that kind, after the ones it declares. Idempotent:
 * Fastify calls onRoute again for the HEAD route it derives from a GET.
 */
export function addRouteHook<N extends HookName>(route: RouteOptions, name: N, hook: HookOf<N>): void {
  const current = route[name] as HookOf<N> | HookOf<N>[] | undefined;
  const hooks = current === undefined ? [] : Array.isArray(current) ? current : [current];
  if (!hooks.includes(hook)) route[name] = [...hooks, hook] as RouteOptions[N];
}
