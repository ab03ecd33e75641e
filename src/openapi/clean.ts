// TypeBox 1.x marks its schema objects with keys such as `~kind` (non-enumerable today, but
// nothing promises that), and a shared schema's `$id` is a bare name that means nothing
// inside the document once its $refs point at components/schemas. Neither belongs in a
// published OpenAPI document, so both are removed from a copy; the route schemas themselves
// stay untouched. A component that refers to itself is unrolled to a bounded depth
// (bound-recursion.ts), for tools that cannot follow a cycle. Tags that no operation uses are dropped too, so that the list in /docs
// always matches the routes that exist. Error answers become $refs to shared responses
// (shared-responses.ts), and every answer names the RateLimit-* headers (rate-limit-headers.ts).

import { boundRecursion } from './bound-recursion.js';
import { addRateLimitHeaders } from './rate-limit-headers.js';
import { shareErrorResponses } from './shared-responses.js';

type Json = unknown;

export function cleanDocument(document: Record<string, unknown>): Record<string, unknown> {
  const out = strip(document) as Record<string, unknown>;
  const components = out.components as { schemas?: Record<string, Record<string, unknown>> } | undefined;
  if (components?.schemas) components.schemas = boundRecursion(components.schemas);
  shareErrorResponses(out);
  addRateLimitHeaders(out);
  const used = new Set<string>();
  for (const item of Object.values((out.paths ?? {}) as Record<string, Record<string, { tags?: string[] }>>)) {
    for (const operation of Object.values(item)) for (const tag of operation.tags ?? []) used.add(tag);
  }
  if (Array.isArray(out.tags)) out.tags = (out.tags as Array<{ name: string }>).filter((t) => used.has(t.name));
  return out;
}

function strip(value: Json): Json {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith('~') || key === '$id') continue;
    out[key] = strip(child);
  }
  return out;
}
