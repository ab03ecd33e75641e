import type { CategoryTree } from '../filters.js';
import type { Facets } from './facets.js';
import { ADVANCED, type MatchIndex, STOCKED } from './match-index.js';
import { chosenRanges, type PriceRange } from './price-ranges.js';

// facets.ts's counts over the match index's slots instead of rows read from SQL: the same
// rules (a product once per ancestor of its categories, price ranges given or chosen), so
// the two give the same answer (test/products/search/memory-matches-sql.test.ts).

/** Per category, the slots in its subtree: a product once per ancestor, however many of its categories lie below. */
export function categoryCounts(index: MatchIndex, slots: ArrayLike<number>, tree: CategoryTree) {
  const start = index.catStart.items;
  const links = index.catLinks.items;
  const { parents } = tree;
  // A product of one category adds one to it, rolled up the tree once at the end (counted in
  // an array by id when ids are small, as generated and imported ones are); one of several
  // walks its ancestors, each counted once for it.
  const top = Math.max(0, ...parents.keys());
  const dense = top < 1 << 20 ? new Int32Array(top + 1) : undefined;
  const direct = new Map<number, number>();
  const counts = new Map<number, number>();
  const seen = new Set<number>();
  const bump = (at: number, n: number) => counts.set(at, (counts.get(at) ?? 0) + n);
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i];
    const from = start[s];
    const to = start[s + 1];
    if (to - from === 1) {
      const c = links[from];
      if (dense && c >= 0 && c <= top) dense[c]++;
      else direct.set(c, (direct.get(c) ?? 0) + 1);
      continue;
    }
    seen.clear();
    for (let j = from; j < to; j++) {
      for (let at: number | null | undefined = links[j]; at != null && parents.has(at) && !seen.has(at);) {
        seen.add(at);
        bump(at, 1);
        at = parents.get(at);
      }
    }
  }
  if (dense) dense.forEach((n, c) => n > 0 && direct.set(c, (direct.get(c) ?? 0) + n));
  for (const [c, n] of direct) {
    let steps = 0;
    for (let at: number | null | undefined = c; at != null && parents.has(at) && steps <= parents.size; steps++) {
      bump(at, n);
      at = parents.get(at);
    }
  }
  return [...counts].sort((a, b) => a[0] - b[0]).map(([id, count]) => ({ id, count }));
}

export function priceCounts(
  index: MatchIndex,
  slots: ArrayLike<number>,
  given: PriceRange[] | undefined,
): NonNullable<Facets['price']> {
  const price = index.price.items;
  let min: number | null = null;
  let max: number | null = null;
  for (let i = 0; i < slots.length; i++) {
    const p = price[slots[i]];
    if (min === null || p < min) min = p;
    if (max === null || p > max) max = p;
  }
  const ranges = given ?? (min === null || max === null ? [] : chosenRanges(min, max));
  const counts = ranges.map(() => 0);
  for (let i = 0; i < slots.length; i++) {
    const p = price[slots[i]];
    for (let r = 0; r < ranges.length; r++) {
      const g = ranges[r];
      if ((g.from === null || p >= g.from) && (g.to === null || p < g.to)) counts[r]++;
    }
  }
  return { min, max, ranges: ranges.map((g, r) => ({ from: g.from, to: g.to, count: counts[r] })) };
}

export function stockCounts(index: MatchIndex, slots: ArrayLike<number>): NonNullable<Facets['in_stock']> {
  const flags = index.flags.items;
  let t = 0;
  for (let i = 0; i < slots.length; i++) if (flags[slots[i]] & STOCKED) t++;
  return { true: t, false: slots.length - t };
}

export function typeCounts(index: MatchIndex, slots: ArrayLike<number>): NonNullable<Facets['inventory_type']> {
  const flags = index.flags.items;
  let advanced = 0;
  for (let i = 0; i < slots.length; i++) if (flags[slots[i]] & ADVANCED) advanced++;
  return { simple: slots.length - advanced, advanced };
}
