import { parse } from 'csv-parse/sync';
import { importDocument } from '../../src/import/import.js';
import type { Storage } from '../../src/db/connect.js';
import { SHOP } from '../support/shop.js';

// A shop with enough products for several keyset pages, ties in every order key (same
// price, custom_sort, created_at, names differing only in case), hidden ones, images and
// categories, and cells a spreadsheet would run as formulas.

export const FORMULA_NAME = '=HYPERLINK("http://evil.example","click")';

export async function seedMany(storage: Storage): Promise<void> {
  const products = Array.from({ length: 45 }, (_, i) => {
    const id = 100 + i;
    return {
      id,
      handle: `many-${id}`,
      name: i % 3 === 0 ? 'Mug' : i % 3 === 1 ? 'mug' : `Mug ${i % 5}`,
      description: i % 4 === 0 ? 'Line one\nline "two", with a comma' : '',
      sku: i % 2 === 0 ? `M-${i}` : null,
      price: 100 * (i % 4),
      inventory_type: i % 5 === 0 ? 'advanced' : 'simple',
      in_stock: i % 3 !== 0,
      stock_quantity: i % 7,
      show_in_store: i % 6 !== 0,
      custom_sort: (i % 3) - 1,
      category_ids: i % 2 === 0 ? [1, 3] : [],
      images:
        i % 3 === 0
          ? [
              { url: `https://img.example/${id}.jpg`, alt: 'a; b | c \\ d' },
              { url: `https://img.example/${id}-2.jpg`, alt: '' },
            ]
          : [],
      created_at: 5000 + (i % 9) * 10,
      updated_at: 6000 + i,
    };
  });
  products.push({ ...products[1], id: 199, handle: 'formula', name: FORMULA_NAME, sku: '+1-555', custom_sort: -7 });
  await importDocument(storage.db, { project: { id: SHOP, name: 'Shop', currency: 'EUR' }, products });
}

/** A CSV text as rows of cells (the header first), after its byte order mark. */
export function csvRows(text: string): string[][] {
  const rows: string[][] = parse(text, { bom: true });
  return rows;
}
