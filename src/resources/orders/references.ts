import type { ReferenceCheck } from '../descriptor.js';

/** Every item's product exists (an item of a removed product has a null product_id). */
export async function checkOrderReferences(c: ReferenceCheck): Promise<void> {
  const bad = await c.db
    .selectFrom('order_items as i')
    .leftJoin('products as p', (j) => j.onRef('p.project_id', '=', 'i.project_id').onRef('p.id', '=', 'i.product_id'))
    .select(['i.order_id', 'i.position', 'i.product_id'])
    .where('i.project_id', '=', c.projectId)
    .where('i.product_id', 'is not', null)
    .where('p.id', 'is', null)
    .limit(c.limit)
    .execute();
  for (const i of bad) {
    if (i.product_id !== null && c.refused('products', i.product_id)) continue;
    c.problemAt(
      i.order_id,
      `items[${i.position}].product_id`,
      `refers to product ${i.product_id}, which does not exist (use null for a removed product)`,
    );
  }
}
