import type { CategoryTree } from '../filters.js';
import type { Facets } from './facets.js';
import { ADVANCED, type IndexColumns, STOCKED } from './match-index.js';
import { chosenRanges, type PriceRange } from './price-ranges.js';

// facets.ts's counts over the match index's slots instead of rows read from SQL: the same
// rules (a product once per ancestor of its categories, price ranges given or chosen), so
// the two give the same answer (test/products/search/memory-matches-sql.test.ts).

/** Per category, the slots in its subtree: a product once per ancestor, however many of its categories lie below. */
export function categoryCounts(index: IndexColumns, slots: ArrayLike<number>, tree: CategoryTree) {
  const start = index.catStart.items;
  const links = index.catLinks.items;
  const { byId, places, ids, parent } = numbered(tree);
  const place = (id: number) => (byId ? (id >= 0 && id < byId.length ? byId[id] : -1) : (places.get(id) ?? -1));
  // A product of one category adds one to it, rolled up the tree once at the end; one of
  // several walks its ancestors, each counted once for it (`stamp`: the last product that
  // counted the category).
  const direct = new Int32Array(ids.length);
  const counts = new Int32Array(ids.length);
  const stamp = new Int32Array(ids.length);
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i];
    const from = start[s];
    const to = start[s + 1];
    if (to - from === 1) {
      const id = links[from];
      const c = byId && id >= 0 && id < byId.length ? byId[id] : place(id);
      if (c >= 0) direct[c]++;
      continue;
    }
    for (let j = from; j < to; j++) {
      for (let at = place(links[j]); at >= 0 && stamp[at] !== i + 1; at = parent[at]) {
        stamp[at] = i + 1;
        counts[at]++;
      }
    }
  }
  for (let c = 0; c < ids.length; c++) {
    if (direct[c] === 0) continue;
    for (let at = c, steps = 0; at >= 0 && steps <= ids.length; at = parent[at], steps++) counts[at] += direct[c];
  }
  const out: { id: number; count: number }[] = [];
  for (let c = 0; c < ids.length; c++) if (counts[c] > 0) out.push({ id: ids[c], count: counts[c] });
  return out.sort((a, b) => a.id - b.id);
}

/**
 * The tree's categories numbered 0 … n-1: each one's place by id (`byId`, an array when ids
 * are small, as generated and imported ones are; else the map `places`) and its parent's.
 */
function numbered(tree: CategoryTree) {
  const ids = [...tree.parents.keys()];
  const places = new Map(ids.map((id, i) => [id, i]));
  const parent = Int32Array.from(ids, (id) => {
    const p = tree.parents.get(id);
    return p == null ? -1 : (places.get(p) ?? -1);
  });
  const top = Math.max(0, ...ids);
  if (top >= 1 << 20) return { byId: undefined, places, ids, parent };
  const byId = new Int32Array(top + 1).fill(-1);
  ids.forEach((id, i) => id >= 0 && (byId[id] = i));
  return { byId, places, ids, parent };
}

export function priceCounts(
  index: IndexColumns,
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
  const counts = given ? countGiven(price, slots, given) : countChosen(price, slots, ranges);
  return { min, max, ranges: ranges.map((g, r) => ({ from: g.from, to: g.to, count: counts[r] })) };
}

/** Chosen ranges are adjacent and of one width: a price's range is a division. */
function countChosen(price: Float64Array, slots: ArrayLike<number>, ranges: PriceRange[]): number[] {
  const counts = ranges.map(() => 0);
  if (ranges.length === 0) return counts;
  const from = ranges[0].from!;
  const width = ranges[0].to! - from;
  for (let i = 0; i < slots.length; i++) {
    const r = Math.floor((price[slots[i]] - from) / width);
    if (r >= 0 && r < counts.length) counts[r]++;
  }
  return counts;
}

/** Given ranges may overlap or leave gaps: each price tested against each. */
function countGiven(price: Float64Array, slots: ArrayLike<number>, ranges: PriceRange[]): number[] {
  const counts = ranges.map(() => 0);
  for (let i = 0; i < slots.length; i++) {
    const p = price[slots[i]];
    for (let r = 0; r < ranges.length; r++) {
      const g = ranges[r];
      if ((g.from === null || p >= g.from) && (g.to === null || p < g.to)) counts[r]++;
    }
  }
  return counts;
}

export function stockCounts(index: IndexColumns, slots: ArrayLike<number>): NonNullable<Facets['in_stock']> {
  const flags = index.flags.items;
  let t = 0;
  for (let i = 0; i < slots.length; i++) if (flags[slots[i]] & STOCKED) t++;
  return { true: t, false: slots.length - t };
}

export function typeCounts(index: IndexColumns, slots: ArrayLike<number>): NonNullable<Facets['inventory_type']> {
  const flags = index.flags.items;
  let advanced = 0;
  for (let i = 0; i < slots.length; i++) if (flags[slots[i]] & ADVANCED) advanced++;
  return { simple: slots.length - advanced, advanced };
}
