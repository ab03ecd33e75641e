import type { Kysely } from 'kysely';
import { addCounts } from '../../db/add-counts.js';
import { textList } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { GramDeltas, gramKey } from './gram-deltas.js';
import { eachStoredProduct } from './stored-walk.js';

// Kept search-gram counts (migration 011): per project and per gram of 1 to 3 characters,
// how many products (visible ones, and all) have it in their search_text. A search term
// (case-folded) that is such a gram then has its exact total in one primary-key read: the
// count of a 3-letter term matching 90k of a million products read every match (300 to 600
// ms), and one or two letters match most of the catalog. Longer terms are still counted.
// Grams hold no field separator (U+001F), NUL or surrogate (astral characters); a term with
// one of those is not kept and is counted too.
//
// Every write of products keeps them in its transaction, through the products' tally
// (tally.ts): the import, generate, the update over HTTP (a new name), deletions.

/** Rows a statement writes: within SQLite's and PostgreSQL's limits, one JSON or array parameter each. */
const CHUNK = 5_000;

/**
 * The exact number of the project's products (visible ones unless `includeHidden`) whose
 * search_text holds `term` (already case-folded), or undefined when the term is not a kept
 * gram: the caller counts then.
 */
export async function keptGramCount(
  db: Kysely<Database>,
  projectId: string,
  term: string,
  includeHidden: boolean,
): Promise<number | undefined> {
  if (gramKey(term) === undefined) return undefined;
  const row = await db
    .selectFrom('search_grams')
    .select(['visible', 'total'])
    .where('project_id', '=', projectId)
    .where('gram', '=', term)
    .executeTakeFirst();
  return Number((includeHidden ? row?.total : row?.visible) ?? 0);
}

/** Adds the tallied changes to the kept counts; grams no product holds any more are removed. */
export async function writeGramDeltas(db: Kysely<Database>, projectId: string, deltas: GramDeltas): Promise<void> {
  const changed = [...deltas.changed()];
  for (let i = 0; i < changed.length; i += CHUNK) {
    const chunk = changed.slice(i, i + CHUNK).map(({ gram, visible, total }) => ({ key: gram, visible, total }));
    await addCounts(db, 'search_grams', 'gram', projectId, chunk);
  }
  // Only a gram that lost products can have none left.
  const emptied = changed.filter((d) => d.total < 0).map((d) => d.gram);
  for (let i = 0; i < emptied.length; i += CHUNK) {
    const grams = emptied.slice(i, i + CHUNK);
    await db
      .deleteFrom('search_grams')
      .where('project_id', '=', projectId)
      .where('total', '<=', 0)
      .where('gram', 'in', textList(db, grams))
      .execute();
  }
}

/** Counts every gram of the project's stored products anew (the migration, and the drift tests' reference). */
export async function recountGrams(db: Kysely<Database>, projectId: string): Promise<void> {
  const deltas = new GramDeltas();
  await eachStoredProduct(db, projectId, (r) => deltas.add(r.search_text, r.show_in_store === 1, 1));
  await db.deleteFrom('search_grams').where('project_id', '=', projectId).execute();
  await writeGramDeltas(db, projectId, deltas);
}
