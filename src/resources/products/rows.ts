import type { Insertable } from 'kysely';
import type { ProductCategoryTable, ProductTable } from '../../db/schema.js';
import { type RecordRows, type RowContext, recordTimes } from '../descriptor.js';
import { nameKey, searchText } from './present.js';
import type { ProductRecord } from './record.js';

/** The row with its derived columns (name_key, search_text), and one link a category. */
export function productRows(p: ProductRecord, id: number, ctx: RowContext): RecordRows {
  const pid = ctx.projectId;
  const description = p.description ?? '';
  const sku = p.sku ?? null;
  const { created_at, updated_at } = recordTimes(p, ctx);
  const row: Insertable<ProductTable> & { id: number } = {
    project_id: ctx.projectId,
    id,
    handle: p.handle,
    name: p.name,
    name_key: nameKey(p.name),
    description,
    sku,
    search_text: searchText(p.name, description, sku),
    price: p.price,
    inventory_type: p.inventory_type ?? 'simple',
    in_stock: p.in_stock === false ? 0 : 1,
    stock_quantity: p.stock_quantity ?? 0,
    show_in_store: p.show_in_store === false ? 0 : 1,
    custom_sort: p.custom_sort ?? 0,
    images: JSON.stringify(p.images ?? []),
    created_at,
    updated_at,
  };
  const links: Insertable<ProductCategoryTable>[] = [...new Set(p.category_ids ?? [])].map((category_id) => ({
    project_id: pid,
    product_id: id,
    category_id,
  }));
  return { row, children: { product_categories: links } };
}
