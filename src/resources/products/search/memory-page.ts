import { descendantsIn } from '../filters.js';
import { orderColumn, tieDirection } from '../grouped-page.js';
import type { ProductFilter } from '../list.js';
import type { OrderClause } from '../schemas.js';
import type { FacetName, Facets } from './facets.js';
import { ADVANCED, type IndexColumns, STOCKED } from './match-index.js';
import { categoryCounts, priceCounts, stockCounts, typeCounts } from './memory-facets.js';
import { type Matches, matchedSlots } from './memory-matches.js';
import type { WordRuns } from './word-postings.js';
import type { SearchPage, ShopSearch } from './page.js';
import { firstK, KeyHeap } from './top-k.js';

// A page of CONTRACT 17's list from the match index (match-index.ts): the match set and its
// ranks (memory-matches.ts), every filter as a bit of a mask per match, the page as the first
// offset + perpage in the request's order (top-k.ts), the exact total, and each facet
// counted over the matches whose mask holds no filter but its own. The same answers as the
// SQL path (page.ts), which stays for what this does not hold: `search=`, `ids=` and name
// orders (a name key per product would double the index).

const PRICE = 1;
const IN_STOCK = 2;
const TYPE = 4;
const CATEGORIES = 8;
const OWN: Record<FacetName, number> = { category: CATEGORIES, price: PRICE, in_stock: IN_STOCK, inventory_type: TYPE };

/** Whether the index can answer this list (else the SQL path does). */
export function answersInMemory(filter: ProductFilter, order: OrderClause[]): boolean {
  return filter.search === undefined && filter.ids === undefined && !order.some((c) => c.startsWith('name_'));
}

/** The page, total and facets; `words`: each `q` word's runs (memory-matches.ts `runsOf`), undefined without `q`. */
export function memoryPage(
  index: IndexColumns,
  words: WordRuns[] | undefined,
  filter: ProductFilter,
  s: ShopSearch,
  order: OrderClause[],
  offset: number,
  perpage: number,
): SearchPage {
  const names = s.facets ?? [];
  const m = matchedSlots(index, words, filter);
  // Without filters every match passes: no mask, no list of places (undefined: all of m).
  const filtered = filterMasks(index, m, s);
  const passing = filtered && where(filtered.masks, 0xff);
  const total = passing ? passing.length : m.slots.length;
  const relevance = s.relevance && words !== undefined;
  const top = firstOf(index, m, passing, relevance, order, offset + perpage);
  const ids = top.slice(offset).map((i) => index.ids.items[m.slots[passing ? passing[i] : i]]);
  const facets: Facets = {};
  let passingSlots: Int32Array | undefined;
  for (const name of names) {
    // A facet whose own filter no match fails counts the matches of the page's total.
    const slots =
      !filtered || (filtered.failed & OWN[name]) === 0
        ? (passingSlots ??= slotsAt(m, passing))
        : slotsAt(m, where(filtered.masks, ~OWN[name]));
    if (name === 'category') facets.category = categoryCounts(index, slots, index.tree);
    if (name === 'price') facets.price = priceCounts(index, slots, s.priceRanges);
    if (name === 'in_stock') facets.in_stock = stockCounts(index, slots);
    if (name === 'inventory_type') facets.inventory_type = typeCounts(index, slots);
  }
  return names.length ? { ids, total, facets } : { ids, total };
}

/** The slots of the matches at `places` (undefined: every match). */
function slotsAt(m: Matches, places: Int32Array | undefined): Int32Array {
  if (!places) return m.slots;
  const out = new Int32Array(places.length);
  for (let i = 0; i < places.length; i++) out[i] = m.slots[places[i]];
  return out;
}

/** The first k passing matches in the request's order, as their places among the passing. */
function firstOf(
  index: IndexColumns,
  m: Matches,
  passing: Int32Array | undefined,
  relevance: boolean,
  order: OrderClause[],
  k: number,
): number[] {
  const n = passing ? passing.length : m.slots.length;
  // The default orders (relevance alone with `q`, else newest first) as one number a match.
  const keyed = relevance ? order.length === 0 : order.length === 1 && order[0] === 'date_desc';
  const byKey = keyed ? newestFirst(index, m, passing, relevance ? 'ranked' : 'newest', k) : undefined;
  if (byKey) return byKey;
  const placeOf = passing ? (i: number) => passing[i] : (i: number) => i;
  const cmp = comparer(index, m, relevance, order);
  const fromEnd = !relevance && (order.length === 0 || order[0] === 'date_desc');
  return firstK(n, k, (a, b) => cmp(placeOf(a), placeOf(b)), fromEnd);
}

/** Creation times below this fit beside a relevance rank in one double's 53 bits. */
const TIME_LIMIT = 2 ** 33;

/**
 * The first k newest first, `ranked` by relevance before (exact words, fewer edits, name
 * words), each match's place one number (larger first, ties by the larger id), in one pass
 * from the end (the newest slots are there). Undefined when a creation time is not a whole
 * number of seconds in 0 … 2^33 (the comparer's then).
 */
function newestFirst(
  index: IndexColumns,
  m: Matches,
  passing: Int32Array | undefined,
  by: 'ranked' | 'newest',
  k: number,
) {
  const relevance = by === 'ranked';
  const created = index.created.items;
  const ids = index.ids.items;
  const { slots, exact, typos, names } = m;
  const n = passing ? passing.length : slots.length;
  const heap = new KeyHeap(Math.min(k, n));
  for (let i = n - 1; i >= 0; i--) {
    const at = passing ? passing[i] : i;
    const slot = slots[at];
    const t = created[slot];
    if (!(t >= 0 && t < TIME_LIMIT && t === Math.floor(t))) return undefined;
    // exact ≤ 10, typos ≤ 20 and names ≤ 10 (at most 10 words of at most two edits).
    const rank = relevance ? exact[at] * 512 + (31 - typos[at]) * 16 + names[at] : 0;
    const key = rank * TIME_LIMIT + t;
    if (heap.full && key < heap.least) continue;
    heap.offer(key, ids[slot], i);
  }
  return heap.sorted();
}

/** The places in the masks of the matches failing none of the filters of `bits`. */
function where(masks: Uint8Array, bits: number): Int32Array {
  const out = new Int32Array(masks.length);
  let n = 0;
  for (let i = 0; i < masks.length; i++) if ((masks[i] & bits) === 0) out[n++] = i;
  return out.subarray(0, n);
}

/** Per match, a bit for each filter of the request it fails; `failed`, the bits some match has. Undefined without filters. */
function filterMasks(
  index: IndexColumns,
  m: Matches,
  s: ShopSearch,
): { masks: Uint8Array; failed: number } | undefined {
  const { priceMin, priceMax, inStock, inventoryType, categories } = s;
  if (priceMin === undefined && priceMax === undefined && inStock === undefined && !inventoryType && !categories)
    return undefined;
  const masks = new Uint8Array(m.slots.length);
  const price = index.price.items;
  const flags = index.flags.items;
  const wanted = categories && categorySet(descendantsIn(index.tree, categories));
  let failed = 0;
  for (let i = 0; i < m.slots.length; i++) {
    const slot = m.slots[i];
    let mask = 0;
    const p = price[slot];
    if ((priceMin !== undefined && p < priceMin) || (priceMax !== undefined && p > priceMax)) mask |= PRICE;
    if (inStock !== undefined && ((flags[slot] & STOCKED) !== 0) !== inStock) mask |= IN_STOCK;
    if (inventoryType !== undefined && ((flags[slot] & ADVANCED) !== 0) !== (inventoryType === 'advanced'))
      mask |= TYPE;
    if (wanted && !linkedTo(index, slot, wanted)) mask |= CATEGORIES;
    masks[i] = mask;
    failed |= mask;
  }
  return { masks, failed };
}

function linkedTo(index: IndexColumns, slot: number, wanted: (id: number) => boolean): boolean {
  const links = index.catLinks.items;
  for (let j = index.catStart.items[slot]; j < index.catStart.items[slot + 1]; j++) if (wanted(links[j])) return true;
  return false;
}

/** Membership of `ids`: a flag per id in an array when ids are small (tested once per match), else a set. */
function categorySet(ids: number[]): (id: number) => boolean {
  const top = Math.max(0, ...ids);
  if (top >= 1 << 20) {
    const set = new Set(ids);
    return (id) => set.has(id);
  }
  const flags = new Uint8Array(top + 1);
  for (const id of ids) flags[id] = 1;
  return (id) => id >= 0 && id <= top && flags[id] === 1;
}

/** The request's order over matches (by their place in `m`), as match-set.ts sorts in SQL. */
function comparer(index: IndexColumns, m: Matches, relevance: boolean, order: OrderClause[]) {
  const clauses = relevance ? order : order.length ? order : (['date_desc'] as OrderClause[]);
  const columns = clauses.map((c) => {
    const { column, dir } = orderColumn(c);
    const values = column === 'price' ? index.price : column === 'created_at' ? index.created : index.custom;
    return { values: values.items, sign: dir === 'desc' ? -1 : 1 };
  });
  const ids = index.ids.items;
  const created = index.created.items;
  const idSign = relevance ? -1 : tieDirection(clauses) === 'desc' ? -1 : 1;
  const { slots, exact, typos, names } = m;
  return (a: number, b: number): number => {
    if (relevance) {
      const r = exact[b] - exact[a] || typos[a] - typos[b] || names[b] - names[a];
      if (r !== 0) return r;
    }
    const x = slots[a];
    const y = slots[b];
    for (const { values, sign } of columns) if (values[x] !== values[y]) return values[x] < values[y] ? -sign : sign;
    if (relevance && created[x] !== created[y]) return created[x] < created[y] ? 1 : -1;
    return ids[x] < ids[y] ? -idSign : idSign;
  };
}
