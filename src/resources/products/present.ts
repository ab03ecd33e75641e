import type { Selectable } from 'kysely';
import type { ProductTable } from '../../db/schema.js';
import type { ProductRecord } from './record.js';
import type { Product } from './schemas.js';

export type ProductRow = Selectable<ProductTable>;

/**
 * The columns an answer shows (and name_key, which orders): every list reads these alone.
 * search_text, the folded copy of name, description and sku, is as long as all three and
 * only ever searched: read with the rows it was a quarter of their bytes.
 */
export const SHOWN = [
  'id',
  'handle',
  'name',
  'name_key',
  'description',
  'sku',
  'price',
  'inventory_type',
  'in_stock',
  'stock_quantity',
  'show_in_store',
  'custom_sort',
  'images',
  'created_at',
  'updated_at',
] as const;

/** SHOWN, qualified: the same in a query of `products` alone and in one that joins. */
export const SHOWN_COLUMNS = SHOWN.map((c) => `products.${c}` as const);

/** A product as lists read it: SHOWN_COLUMNS. */
export type ShownProductRow = Pick<ProductRow, (typeof SHOWN)[number]>;

/**
 * A stored row as the API shows it: the export's record with the project's currency, and the
 * stock fields as the inventory mode makes them (advanced: in_stock follows stock_quantity;
 * simple: stock_quantity is null).
 */
export function presentProduct(row: ShownProductRow, currency: string, categoryIds: number[]): Product {
  const advanced = row.inventory_type === 'advanced';
  const r = productRecord(row, categoryIds);
  // Field by field, not a rest and a spread of the record: an export presents every row.
  return {
    id: r.id,
    handle: r.handle,
    name: r.name,
    description: r.description,
    sku: r.sku,
    price: r.price,
    currency,
    inventory_type: r.inventory_type,
    in_stock: advanced ? row.stock_quantity > 0 : row.in_stock === 1,
    stock_quantity: advanced ? row.stock_quantity : null,
    show_in_store: r.show_in_store,
    custom_sort: r.custom_sort,
    category_ids: r.category_ids,
    images: r.images,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/**
 * A stored row as a record of an export: the stored stock fields of either inventory mode
 * (an import of it restores both), and no currency (the project line carries it).
 */
export function productRecord(row: ShownProductRow, categoryIds: number[]): Required<ProductRecord> & { id: number } {
  return {
    id: row.id,
    handle: row.handle,
    name: row.name,
    description: row.description,
    sku: row.sku,
    price: row.price,
    inventory_type: row.inventory_type,
    in_stock: row.in_stock === 1,
    stock_quantity: row.stock_quantity,
    show_in_store: row.show_in_store === 1,
    custom_sort: row.custom_sort,
    category_ids: categoryIds,
    images: JSON.parse(row.images) as { url: string; alt: string }[],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The case-folded text `search` looks in. \u001f keeps a match from spanning two fields. */
export function searchText(name: string, description: string, sku: string | null): string {
  return foldCase([name, description, sku ?? ''].join('\u001f'));
}

/**
 * Unicode full case folding, as `search` needs it (docs/API.md): the stored text and the
 * term are both folded by this one function, so both backends compare the same strings.
 * `toLowerCase` alone is context-sensitive (a capital sigma at a word's end becomes ς, so
 * "ΚΟΣ" missed "ΚΟΣΤΑΣ") and keeps ß apart from "ss". Lower, upper, lower applies the full
 * mappings (ß and ẞ -> ss, ligatures, ΐ), and every sigma is then one letter, σ. It differs
 * from CaseFolding.txt only where it folds more (dotless ı to i).
 */
export function foldCase(text: string): string {
  return text.toLowerCase().toUpperCase().toLowerCase().replace(/ς/g, 'σ');
}

export function nameKey(name: string): string {
  return name.toLowerCase();
}

/**
 * Strings in code point order, as the byte-collated (UTF-8) name_key compares in SQL on both
 * backends. JavaScript's `<` compares UTF-16 units, which puts U+10000 and above (surrogate
 * pairs, D800-DFFF) before U+E000-FFFF; at the first differing unit both are moved so that
 * the surrogates come last. Without encoding: Buffer.compare of the UTF-8 bytes took 10 times
 * as long to sort 50 names.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}
