import type { ReferenceCheck } from '../descriptor.js';

/** Every category a product is filed in exists. */
export async function checkProductReferences(c: ReferenceCheck): Promise<void> {
  const missing = await c.db
    .selectFrom('product_categories as pc')
    .leftJoin('categories as c', (j) =>
      j.onRef('c.project_id', '=', 'pc.project_id').onRef('c.id', '=', 'pc.category_id'),
    )
    .select(['pc.product_id', 'pc.category_id'])
    .where('pc.project_id', '=', c.projectId)
    .where('c.id', 'is', null)
    .limit(c.limit)
    .execute();
  for (const m of missing)
    if (!c.refused('categories', m.category_id))
      c.problemAt(m.product_id, 'category_ids', `refers to category ${m.category_id}, which does not exist`);
}
