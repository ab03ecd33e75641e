import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ErrorDetail } from '../../errors.js';
import { productsByIds } from './by-ids.js';
import type { ProductRecord } from './record.js';

// A products CSV changes only the columns it has (docs/API.md, "What a CSV changes"): each row
// finds its stored product by `id`, or without one by `handle`, and becomes the stored
// record with the row's columns put in (a blank cell: the field's default). Stock follows the
// single update's rule (CONTRACT 5): the cell of the mode the product does not use is kept
// as stored when blank or unchanged, and is a problem of its row otherwise. The stored
// products are read a chunk of rows at a time, by primary key and by handle.

type Cells = Record<string, unknown>;
type Stored = Required<ProductRecord> & { id: number };

/** The stored products the rows name, by id; a row naming its product by handle gets its id. */
export async function storedProductsOf(
  db: Kysely<Database>,
  projectId: string,
  currency: string,
  rows: Cells[],
): Promise<Map<number, Stored>> {
  const handles = rows.filter((r) => r.id === undefined && typeof r.handle === 'string').map((r) => r.handle as string);
  if (handles.length) {
    const found = await db
      .selectFrom('products')
      .select(['id', 'handle'])
      .where('project_id', '=', projectId)
      .where('handle', 'in', [...new Set(handles)])
      .execute();
    const ids = new Map(found.map((f) => [f.handle, f.id]));
    for (const r of rows) if (r.id === undefined && ids.has(r.handle as string)) r.id = ids.get(r.handle as string);
  }
  const ids = [...new Set(rows.map((r) => r.id).filter((id): id is number => Number.isSafeInteger(id)))];
  if (ids.length === 0) return new Map();
  const viewer = { projectId, currency, includeHidden: true, everyStatus: true, form: 'record' as const };
  return (await productsByIds(db, viewer, ids)) as Map<number, Stored>;
}

/** The record a row makes of its stored product (none: a new one) given the header's columns. */
export function mergeProduct(
  stored: Stored | undefined,
  given: Cells,
  columns: readonly string[],
): { record: Cells; problem?: ErrorDetail } {
  const record: Cells = { ...stored };
  for (const column of columns) delete record[column];
  Object.assign(record, given);
  return { record, problem: settleStock(stored, given, record) };
}

function settleStock(stored: Stored | undefined, given: Cells, record: Cells): ErrorDetail | undefined {
  const keep = (field: 'in_stock' | 'stock_quantity') => {
    if (stored) record[field] = stored[field];
    else delete record[field];
  };
  if ((record.inventory_type ?? 'simple') === 'simple') {
    if (given.stock_quantity === undefined || given.stock_quantity === stored?.stock_quantity) {
      keep('stock_quantity');
      return undefined;
    }
    return {
      field: 'stock_quantity',
      message: 'applies to advanced products only: leave the cell empty, or set inventory_type to advanced',
    };
  }
  // An advanced product shows in_stock as stock_quantity > 0: the exported cell, not a choice.
  const shown = [(Number(record.stock_quantity) || 0) > 0];
  if (stored) shown.push(stored.in_stock, stored.inventory_type === 'advanced' && stored.stock_quantity > 0);
  if (given.in_stock === undefined || shown.includes(given.in_stock as boolean)) {
    keep('in_stock');
    return undefined;
  }
  return {
    field: 'in_stock',
    message: 'of an advanced product follows stock_quantity: change stock_quantity, or set inventory_type to simple',
  };
}
