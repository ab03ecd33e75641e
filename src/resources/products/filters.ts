import { type Kysely, type SelectQueryBuilder, type Expression, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.js';

// The products list's filters of CONTRACT 17 beside `category`, `search` and `ids`:
// `price_min`, `price_max`, `in_stock`, `inventory_type` and `categories` (already widened to
// the categories' subtrees by descendantsIn). All combine with AND.

export interface ShopFilters {
  priceMin?: number;
  priceMax?: number;
  inStock?: boolean;
  inventoryType?: 'simple' | 'advanced';
  /** the categories asked for and all their descendants */
  categoryIds?: number[];
}

/** The shown in_stock (CONTRACT 3): simple, the stored flag; advanced, stock above 0. */
export const SHOWN_IN_STOCK = sql<SqlBool>`((products.inventory_type = 'simple' and products.in_stock = 1) or (products.inventory_type = 'advanced' and products.stock_quantity > 0))`;

export function withShopFilters<QB extends SelectQueryBuilder<Database, 'products', object>>(
  q: QB,
  f: ShopFilters,
): QB {
  if (f.priceMin !== undefined) q = q.where('products.price', '>=', f.priceMin) as QB;
  if (f.priceMax !== undefined) q = q.where('products.price', '<=', f.priceMax) as QB;
  if (f.inventoryType !== undefined) q = q.where('products.inventory_type', '=', f.inventoryType) as QB;
  if (f.inStock !== undefined) q = q.where(f.inStock ? SHOWN_IN_STOCK : sql<SqlBool>`not ${SHOWN_IN_STOCK}`) as QB;
  const ids = f.categoryIds;
  if (ids !== undefined) {
    q = q.where((eb) =>
      ids.length === 0
        ? (sql<SqlBool>`1 = 0` as Expression<SqlBool>)
        : eb.exists(
            eb
              .selectFrom('product_categories as pc')
              .select(sql`1`.as('one'))
              .whereRef('pc.project_id', '=', 'products.project_id')
              .whereRef('pc.product_id', '=', 'products.id')
              .where('pc.category_id', 'in', ids),
          ),
    ) as QB;
  }
  return q;
}

/** The project's categories, each with its parent (null at the top). */
export interface CategoryTree {
  parents: Map<number, number | null>;
}

export async function categoryTree(db: Kysely<Database>, projectId: string): Promise<CategoryTree> {
  const rows = await db
    .selectFrom('categories')
    .select(['id', 'parent_id'])
    .where('project_id', '=', projectId)
    .execute();
  return { parents: new Map(rows.map((r) => [Number(r.id), r.parent_id === null ? null : Number(r.parent_id)])) };
}

/** The categories `ids` that exist in the tree, with every descendant of each, ascending. */
export function descendantsIn(tree: CategoryTree, ids: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const [id, parent] of tree.parents) {
    if (parent === null) continue;
    const list = children.get(parent) ?? [];
    list.push(id);
    children.set(parent, list);
  }
  const out = new Set<number>();
  const stack = ids.filter((id) => tree.parents.has(id));
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...out].sort((a, b) => a - b);
}
