import { RESOURCES } from '../resources/registry.js';

/** `1 plan`, `2 plans`, `0 categories`: a count with the resource's name (its type, or its kind). */
export function countOf(n: number, resource: { type: string; kind: string }): string {
  return `${n} ${n === 1 ? resource.type : resource.kind}`;
}

/** One count per resource, in registry order: `3 categories, 1 product, 0 plans, …`. */
export function countsOf(counts: Record<string, number>): string {
  return RESOURCES.map((r) => countOf(counts[r.kind] ?? 0, r)).join(', ');
}
