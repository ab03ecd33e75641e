import type { CategoryTree } from '../filters.js';
import { chosenRanges, type PriceRange } from './price-ranges.js';

// `facets=` (CONTRACT 17): each facet counted over the rows the request matches with every
// filter but its own, exactly. The rows are the request's match set (match-set.ts), read once
// with each row's filter columns and a flag per filter; a facet counts the rows that pass
// every filter but its own, here, so no facet costs another pass over the postings.

export const FACET_NAMES = ['category', 'price', 'in_stock', 'inventory_type'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

export interface Facets {
  category?: { id: number; count: number }[];
  price?: {
    min: number | null;
    max: number | null;
    ranges: { from: number | null; to: number | null; count: number }[];
  };
  in_stock?: { true: number; false: number };
  inventory_type?: { simple: number; advanced: number };
}

/** A row of the match set: what the filters and the facets read. */
export interface FacetRow {
  id: number;
  price: number;
  stocked: boolean;
  inventoryType: 'simple' | 'advanced';
  /** the product's categories (read only when the category facet is asked for) */
  categories?: number[];
}

/**
 * The facets of `names` over `rows`; `passesWithout(row, name)` says whether a row passes every
 * filter of the request but the facet's own.
 */
export function facetsOf(
  rows: readonly FacetRow[],
  names: readonly FacetName[],
  passesWithout: (row: FacetRow, name: FacetName) => boolean,
  tree: CategoryTree | undefined,
  given: PriceRange[] | undefined,
): Facets {
  const facets: Facets = {};
  for (const name of names) {
    const kept = rows.filter((r) => passesWithout(r, name));
    if (name === 'category') facets.category = categoryFacet(kept, tree!);
    if (name === 'price') facets.price = priceFacet(kept, given);
    if (name === 'in_stock') {
      const t = kept.reduce((n, r) => n + (r.stocked ? 1 : 0), 0);
      facets.in_stock = { true: t, false: kept.length - t };
    }
    if (name === 'inventory_type') {
      const simple = kept.reduce((n, r) => n + (r.inventoryType === 'simple' ? 1 : 0), 0);
      facets.inventory_type = { simple, advanced: kept.length - simple };
    }
  }
  return facets;
}

/** Per category, the matches in its subtree: a product once per ancestor, however many of its categories lie below. */
function categoryFacet(rows: readonly FacetRow[], tree: CategoryTree): { id: number; count: number }[] {
  const counts = new Map<number, number>();
  const seen = new Set<number>();
  for (const r of rows) {
    seen.clear();
    for (const c of r.categories ?? []) {
      for (
        let at: number | null | undefined = c;
        at != null && tree.parents.has(at) && !seen.has(at);
        at = tree.parents.get(at)
      ) {
        seen.add(at);
        counts.set(at, (counts.get(at) ?? 0) + 1);
      }
    }
  }
  return [...counts].sort((a, b) => a[0] - b[0]).map(([id, count]) => ({ id, count }));
}

function priceFacet(rows: readonly FacetRow[], given: PriceRange[] | undefined): NonNullable<Facets['price']> {
  let min: number | null = null;
  let max: number | null = null;
  for (const r of rows) {
    if (min === null || r.price < min) min = r.price;
    if (max === null || r.price > max) max = r.price;
  }
  const ranges = given ?? (min === null || max === null ? [] : chosenRanges(min, max));
  return {
    min,
    max,
    ranges: ranges.map((g) => ({
      from: g.from,
      to: g.to,
      count: rows.reduce(
        (n, r) => n + ((g.from === null || r.price >= g.from) && (g.to === null || r.price < g.to) ? 1 : 0),
        0,
      ),
    })),
  };
}
