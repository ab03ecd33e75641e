import { foldCase } from '../../../src/resources/products/present.js';

// A brute-force model of CONTRACT 17 written apart from the code it checks: every product's
// words compared with every query word by a plain edit-distance table (no trie, no SQL), the
// filters and the facets counted product by product.

export interface RefProduct {
  id: number;
  name: string;
  description: string;
  sku: string | null;
  price: number;
  inventory_type: 'simple' | 'advanced';
  in_stock: boolean;
  stock_quantity: number;
  show_in_store: boolean;
  category_ids: number[];
  created_at: number;
}

export interface RefCategory {
  id: number;
  parent_id: number | null;
}

export interface RefQuery {
  q?: string;
  price_min?: number;
  price_max?: number;
  in_stock?: boolean;
  inventory_type?: 'simple' | 'advanced';
  categories?: number[];
  facets?: string[];
  price_ranges?: [number | null, number | null][];
  order?: 'price_asc' | 'name_asc';
}

const words = (text: string) =>
  foldCase(text)
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .normalize('NFC')
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/** Optimal string alignment distance (a swap of neighbours is one edit). */
export function osa(a: string[], b: string[]): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

const allowed = (n: number) => (n <= 4 ? 0 : n <= 8 ? 1 : 2);

/** The code of product word `w` for query word `q`: 0 itself, 1 + edits, undefined no match. */
function codeOf(q: string, w: string, prefix: boolean): number | undefined {
  if (q === w) return 0;
  const a = [...q];
  const b = [...w];
  const k = allowed(a.length);
  let best = osa(a, b) <= k ? 1 + osa(a, b) : undefined;
  if (prefix)
    for (let m = 1; m <= b.length; m++) {
      const d = osa(a, b.slice(0, m));
      if (d <= k && (best === undefined || 1 + d < best)) best = 1 + d;
    }
  return best;
}

interface Ranked {
  p: RefProduct;
  exact: number;
  typos: number;
  names: number;
}

function rank(p: RefProduct, qs: string[]): Ranked | undefined {
  const own = new Map<string, number>();
  for (const w of words(p.name)) own.set(w, 0);
  for (const w of words(`${p.description} ${p.sku ?? ''}`)) if (!own.has(w)) own.set(w, 1);
  let exact = 0;
  let typos = 0;
  let names = 0;
  for (let i = 0; i < qs.length; i++) {
    let best: number | undefined;
    for (const [w, field] of own) {
      const code = codeOf(qs[i], w, i === qs.length - 1);
      if (code !== undefined && (best === undefined || code * 2 + field < best)) best = code * 2 + field;
    }
    if (best === undefined) return undefined;
    if (best < 2) exact++;
    if (best >= 4) typos += Math.floor(best / 2) - 1;
    if (best % 2 === 0) names++;
  }
  return { p, exact, typos, names };
}

const shownInStock = (p: RefProduct) => (p.inventory_type === 'simple' ? p.in_stock : p.stock_quantity > 0);

export function expected(products: RefProduct[], categories: RefCategory[], r: RefQuery) {
  const qs = r.q === undefined ? [] : words(r.q);
  const parent = new Map(categories.map((c) => [c.id, c.parent_id]));
  const ancestors = (id: number) => {
    const out: number[] = [];
    for (let c: number | null | undefined = id; c != null && parent.has(c); c = parent.get(c)) out.push(c);
    return out;
  };
  const within = (p: RefProduct) => p.category_ids.some((c) => ancestors(c).some((a) => r.categories!.includes(a)));
  const checks: Record<string, (p: RefProduct) => boolean> = {
    price: (p) =>
      (r.price_min === undefined || p.price >= r.price_min) && (r.price_max === undefined || p.price <= r.price_max),
    in_stock: (p) => r.in_stock === undefined || shownInStock(p) === r.in_stock,
    inventory_type: (p) => r.inventory_type === undefined || p.inventory_type === r.inventory_type,
    category: (p) => r.categories === undefined || within(p),
  };
  const ranked = products
    .filter((p) => p.show_in_store)
    .map((p) => rank(p, qs))
    .filter((x): x is Ranked => x !== undefined);
  const matchingBut = (skip?: string) =>
    ranked.filter((x) => Object.entries(checks).every(([k, f]) => k === skip || f(x.p)));
  const rows = matchingBut();
  const byOrder = (a: RefProduct, b: RefProduct) =>
    r.order === 'price_asc'
      ? a.price - b.price
      : r.order === 'name_asc'
        ? a.name.toLowerCase() < b.name.toLowerCase()
          ? -1
          : a.name.toLowerCase() > b.name.toLowerCase()
            ? 1
            : 0
        : 0;
  rows.sort((a, b) =>
    qs.length && r.order === undefined
      ? b.exact - a.exact ||
        a.typos - b.typos ||
        b.names - a.names ||
        b.p.created_at - a.p.created_at ||
        b.p.id - a.p.id
      : r.order === undefined
        ? b.p.created_at - a.p.created_at || b.p.id - a.p.id
        : byOrder(a.p, b.p) || a.p.id - b.p.id,
  );
  const facets: Record<string, unknown> = {};
  for (const f of r.facets ?? []) {
    const set = matchingBut(f).map((x) => x.p);
    if (f === 'category') {
      const counts = new Map<number, number>();
      for (const p of set)
        for (const a of new Set(p.category_ids.flatMap(ancestors))) counts.set(a, (counts.get(a) ?? 0) + 1);
      facets.category = [...counts].sort((a, b) => a[0] - b[0]).map(([id, count]) => ({ id, count }));
    }
    if (f === 'in_stock')
      facets.in_stock = { true: set.filter(shownInStock).length, false: set.filter((p) => !shownInStock(p)).length };
    if (f === 'inventory_type')
      facets.inventory_type = {
        simple: set.filter((p) => p.inventory_type === 'simple').length,
        advanced: set.filter((p) => p.inventory_type === 'advanced').length,
      };
    if (f === 'price') {
      const prices = set.map((p) => p.price);
      const min = prices.length ? Math.min(...prices) : null;
      const max = prices.length ? Math.max(...prices) : null;
      const ranges = r.price_ranges ?? [];
      facets.price = {
        min,
        max,
        ranges: r.price_ranges
          ? ranges.map(([from, to]) => ({
              from,
              to,
              count: prices.filter((x) => (from === null || x >= from) && (to === null || x < to)).length,
            }))
          : undefined,
      };
    }
  }
  return { ids: rows.map((x) => x.p.id), facets };
}
