import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ORDER_CSV_COLUMNS, orderCells } from '../resources/orders/csv-columns.js';
import { presentOrder } from '../resources/orders/present.js';
import type { OrderFilter } from '../resources/orders/repository.js';
import { walkOrders } from '../resources/orders/walk.js';
import { PRODUCT_CSV_COLUMNS, productCells } from '../resources/products/csv-columns.js';
import type { ProductFilter } from '../resources/products/list.js';
import { presentProduct } from '../resources/products/present.js';
import type { OrderClause } from '../resources/products/schemas.js';
import { walkProducts } from '../resources/products/walk.js';
import type { ShopSearch } from '../resources/products/search/page.js';
import { walkMatches } from '../resources/products/search/walk-matches.js';
import { type Separator, csvRecord } from './csv-record.js';
import type { Emit } from './snapshot-stream.js';

// The CSV exports (docs/API.md, "CSV"): RFC 4180 (csv-record.ts), UTF-8, a header row,
// written a page at a time. The rows are the list's, in its order, every match (keyset
// pages, walk.ts). The route writes the byte order mark before them (csvStart).

const PAGE = 1000;

/** What a spreadsheet needs to read a file as UTF-8 rather than its locale's 8-bit code page. */
export const BOM = '\ufeff';

/** How a CSV export is written: `bom=false` leaves the mark out; `delimiter=semicolon` separates with `;`. */
export function csvFormatOf(query: { bom?: boolean; delimiter?: 'comma' | 'semicolon' }): {
  start: string;
  separator: Separator;
} {
  return { start: query.bom === false ? '' : BOM, separator: query.delimiter === 'semicolon' ? ';' : ',' };
}

function csv<R>(rows: readonly R[], cells: (row: R) => string[], separator: Separator): string {
  let text = '';
  for (const row of rows) text += csvRecord(cells(row), separator);
  return text;
}

export async function productsCsv(
  db: Kysely<Database>,
  filter: ProductFilter & { shop?: ShopSearch },
  order: OrderClause[],
  currency: string,
  emit: Emit,
  pageSize = PAGE,
  separator: Separator = ',',
): Promise<void> {
  await emit(csvRecord(PRODUCT_CSV_COLUMNS, separator));
  const pages = filter.shop
    ? walkMatches(db, filter, filter.shop, order, pageSize)
    : walkProducts(db, filter, order, pageSize);
  for await (const { rows, categories } of pages) {
    const cells = (r: (typeof rows)[number]) => productCells(presentProduct(r, currency, categories.get(r.id) ?? []));
    await emit(csv(rows, cells, separator));
  }
}

export async function ordersCsv(
  db: Kysely<Database>,
  filter: OrderFilter,
  emit: Emit,
  pageSize = PAGE,
  separator: Separator = ',',
): Promise<void> {
  await emit(csvRecord(ORDER_CSV_COLUMNS, separator));
  for await (const { rows, items } of walkOrders(db, filter, pageSize))
    await emit(csv(rows, (r) => orderCells(presentOrder(r, items.get(r.id) ?? [])), separator));
}
