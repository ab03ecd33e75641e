import { sql } from 'kysely';
import type { Storage } from '../src/db/connect.js';

// What the random inputs are drawn from, read from the bench's own database once the catalog
// is generated: every visible handle, every category, the id range, a vocabulary of
// three-letter terms taken from the products' own names.

export interface Pools {
  project: string;
  key: string;
  handles: string[];
  categoryIds: number[];
  maxProductId: number;
  /** visible products: the last page of a public list of 100 */
  visible: number;
  terms: string[];
  /** one- and two-letter terms: the searches that match the most and cost the most */
  shortTerms: string[];
}

const VOCABULARY = 400;

export async function readPools(storage: Storage, project: string, key: string): Promise<Pools> {
  const db = storage.db;
  const handles = (
    await sql<{
      handle: string;
    }>`select handle from products where project_id = ${project} and show_in_store = 1`.execute(db)
  ).rows.map((r) => r.handle);
  const categoryIds = (
    await sql<{ id: number }>`select id from categories where project_id = ${project}`.execute(db)
  ).rows.map((r) => Number(r.id));
  const maxId = (await sql<{ n: number }>`select max(id) as n from products where project_id = ${project}`.execute(db))
    .rows[0].n;
  const names = (
    await sql<{ name: string }>`select name from products where project_id = ${project} order by id limit 5000`.execute(
      db,
    )
  ).rows.map((r) => r.name.toLowerCase());
  return {
    project,
    key,
    handles,
    categoryIds,
    maxProductId: Number(maxId),
    visible: handles.length,
    terms: vocabulary(names),
    shortTerms: [...'aeiorstnl', 'er', 'an', 'or', 'in', 'ta', 'le', 'ra', 'on'],
  };
}

/** Every three-letter run of letters in the names, spread over the alphabet, up to VOCABULARY of them. */
function vocabulary(names: string[]): string[] {
  const terms = new Set<string>();
  for (const name of names) {
    for (const word of name.split(/[^a-z]+/)) {
      for (let i = 0; i + 3 <= word.length; i++) terms.add(word.slice(i, i + 3));
    }
  }
  // An even spread over the sorted terms, so that both frequent and rare ones are asked.
  const all = [...terms].sort();
  if (all.length <= VOCABULARY) return all;
  return Array.from({ length: VOCABULARY }, (_, i) => all[Math.floor((i * all.length) / VOCABULARY)]);
}
