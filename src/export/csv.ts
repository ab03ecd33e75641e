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
import { csvRecord } from './csv-record.js';
import type { Emit } from './snapshot-stream.js';

// The CSV exports (docs/API.md, "CSV"): RFC 4180 (csv-record.ts), UTF-8, a header row,
// written a page at a time. The rows are the list's, in its order, every match (keyset
// pages, walk.ts).

const PAGE = 1000;

function csv<R>(rows: readonly R[], cells: (row: R) => string[]): string {
  let text = '';
  for (const row of rows) text += csvRecord(cells(row));
  return text;
}

export async function productsCsv(
  db: Kysely<Database>,
  filter: ProductFilter,
  order: OrderClause[],
  currency: string,
  emit: Emit,
  pageSize = PAGE,
): Promise<void> {
  await emit(csvRecord(PRODUCT_CSV_COLUMNS));
  for await (const { rows, categories } of walkProducts(db, filter, order, pageSize))
    await emit(csv(rows, (r) => productCells(presentProduct(r, currency, categories.get(r.id) ?? []))));
}

export async function ordersCsv(db: Kysely<Database>, filter: OrderFilter, emit: Emit, pageSize = PAGE): Promise<void> {
  await emit(csvRecord(ORDER_CSV_COLUMNS));
  for await (const { rows, items } of walkOrders(db, filter, pageSize))
    await emit(csv(rows, (r) => orderCells(presentOrder(r, items.get(r.id) ?? []))));
}
