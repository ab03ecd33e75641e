import type { Storage } from '../../../src/db/connect.js';
import { importDocument } from '../../../src/import/import.js';
import type { RefCategory, RefProduct } from './reference.js';

// Random catalogs for the search tests, from a seeded generator: words that sit near each
// other by one or two edits, diacritics and mixed case, so that typos, prefixes and folding
// all have something to tell apart.

export const POOL = [
  'shirt',
  'shirts',
  'skirt',
  'linen',
  'lamp',
  'lamps',
  'lampshade',
  'café',
  'Cafe',
  'ÉTÉ',
  'ete',
  'oxford',
  'oxfords',
  'boot',
  'boots',
  'bott',
  'wool',
  'woollen',
  'cotton',
  'coton',
  'straße',
  'mug',
  'mugs',
  'tea',
  'teapot',
  'kettle',
  'kettles',
  'blue',
  'blau',
  'green',
  'greens',
  'chocolate',
  'chocolates',
  'choclate',
  'porcelain',
  'portable',
  'ab',
  'abc',
  'abcd',
  'abcde',
];

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const CATEGORIES: RefCategory[] = [
  { id: 1, parent_id: null },
  { id: 2, parent_id: 1 },
  { id: 3, parent_id: 1 },
  { id: 4, parent_id: 2 },
  { id: 5, parent_id: null },
  { id: 6, parent_id: 5 },
];

export function randomCatalog(seed: number, n: number): RefProduct[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const phrase = (max: number) => Array.from({ length: Math.floor(r() * max) + 1 }, () => pick(POOL)).join(' ');
  return Array.from({ length: n }, (_, i) => {
    const advanced = r() < 0.4;
    return {
      id: i + 1,
      name: phrase(3),
      description: r() < 0.7 ? phrase(4) : '',
      sku: r() < 0.5 ? `${pick(POOL).toUpperCase()}-${i}` : null,
      price: Math.floor(r() * 20) * 250,
      inventory_type: advanced ? 'advanced' : 'simple',
      in_stock: r() < 0.7,
      stock_quantity: advanced ? Math.floor(r() * 3) : 0,
      show_in_store: r() < 0.9,
      category_ids: [...new Set(Array.from({ length: Math.floor(r() * 3) }, () => pick(CATEGORIES).id))],
      created_at: 1000 + Math.floor(r() * 5),
    };
  });
}

/** The catalog imported as project `search` (through the importer, the write unit). */
export async function importCatalog(storage: Storage, products: RefProduct[]): Promise<void> {
  await importDocument(storage.db, {
    project: { id: 'search', name: 'Search', currency: 'EUR' },
    categories: CATEGORIES.map((c) => ({ id: c.id, handle: `c${c.id}`, name: `C${c.id}`, parent_id: c.parent_id })),
    products: products.map(({ in_stock, stock_quantity, ...p }) => ({
      ...p,
      handle: `p${p.id}`,
      ...(p.inventory_type === 'simple' ? { in_stock } : { stock_quantity }),
    })),
  });
}
