import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

// What a key may do (docs/API.md, "Keys and scopes"). A protected route names the one scope
// it needs in its options, next to `auth` (`config: { auth: 'key', scope: 'orders:read' }`);
// src/plugins/project-scope.ts refuses, with 403, a valid key that lacks it. Code that
// decides for itself what a key may see (a route with parts for some scopes only) asks
// `hasScope(request, scope)`.

export const SCOPES = [
  'users:read',
  'orders:read',
  'orders:write',
  'products:write',
  'products:read_hidden',
  'webhooks:manage',
  'keys:manage',
  'imports:write',
] as const;

export type Scope = (typeof SCOPES)[number];

/** How scopes are stored (api_keys.scopes): space-separated, in the order of SCOPES. */
export function scopesText(scopes: Iterable<Scope>): string {
  const set = new Set(scopes);
  return SCOPES.filter((s) => set.has(s)).join(' ');
}

/** Every scope, as stored: what keys made without a list, or before scopes existed, hold. */
export const ALL_SCOPES_TEXT = scopesText(SCOPES);

/** The scopes of a stored list; a name this version does not know gives no right. */
export function scopesOf(text: string): Scope[] {
  const names = new Set(text.split(' '));
  return SCOPES.filter((s) => names.has(s));
}

export function isScope(name: string): name is Scope {
  return (SCOPES as readonly string[]).includes(name);
}

/** True when the request carries a key that was accepted and holds this scope. */
export function hasScope(request: FastifyRequest, scope: Scope): boolean {
  return request.apiKeyScopes?.has(scope) ?? false;
}

/** The 403 of a valid key without the scope a call needs. */
export function missingScope(scope: Scope): ApiError {
  return new ApiError(403, `this API key lacks the scope ${scope}`, [{ field: 'scope', message: `requires ${scope}` }]);
}

/** Throws the 403 unless the request's key holds the scope. */
export function requireScope(request: FastifyRequest, scope: Scope): void {
  if (!hasScope(request, scope)) throw missingScope(scope);
}
