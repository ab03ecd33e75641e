import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface StoredText {
  id: number;
  search_text: string;
  show_in_store: number;
}

/** Every stored product of the project, 1,000 at a time in id order (what migrations derive rows from). */
export async function eachStoredProduct(
  db: Kysely<Database>,
  projectId: string,
  visit: (product: StoredText) => void | Promise<void>,
): Promise<void> {
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('products')
      .select(['id', 'search_text', 'show_in_store'])
      .where('project_id', '=', projectId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (rows.length === 0) return;
    for (const r of rows) await visit(r);
    after = rows[rows.length - 1].id;
  }
}
