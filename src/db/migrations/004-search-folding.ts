import type { Kysely } from 'kysely';
import { searchText } from '../../resources/products/present.js';

// products.search_text was lower-cased with toLowerCase, which is context-sensitive (a final
// capital sigma became ς, so "ΚΟΣ" did not find "ΚΟΣΤΑΣ") and left ß apart from "ss". It is
// now Unicode full case folding (foldCase); every stored row is recomputed here, in pages by
// the primary key. On SQLite the update triggers of the trigram index (search-index.ts) keep
// products_fts in step with each changed row. Rows whose text is unchanged are not written.

const PAGE = 1000;

export async function up(db: Kysely<any>): Promise<void> {
  let after = { project_id: '', id: 0 };
  for (;;) {
    const rows = (await db
      .selectFrom('products')
      .select(['project_id', 'id', 'name', 'description', 'sku', 'search_text'])
      .where((eb) =>
        eb.or([
          eb('project_id', '>', after.project_id),
          eb.and([eb('project_id', '=', after.project_id), eb('id', '>', after.id)]),
        ]),
      )
      .orderBy('project_id')
      .orderBy('id')
      .limit(PAGE)
      .execute()) as Array<{
      project_id: string;
      id: number;
      name: string;
      description: string;
      sku: string | null;
      search_text: string;
    }>;
    if (rows.length === 0) return;
    for (const row of rows) {
      const folded = searchText(row.name, row.description, row.sku);
      if (folded === row.search_text) continue;
      await db
        .updateTable('products')
        .set({ search_text: folded })
        .where('project_id', '=', row.project_id)
        .where('id', '=', row.id)
        .execute();
    }
    const last = rows[rows.length - 1];
    after = { project_id: last.project_id, id: Number(last.id) };
  }
}

export async function down(): Promise<void> {
  // The folded text is a superset of the old matches; nothing to undo.
}
