import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { Vocabulary } from './vocabulary.js';

// Each project's vocabulary in this process's memory, per database (a replica keeps its own),
// learnt from `search_words` by `seq`: a write marks each word it adds with its data_version,
// and data_versions follow commit order (docs/ARCHITECTURE.md, "The change log"), so once a
// database shows the project at a products_version, reading the words above the highest seq
// seen gives every word added since. A request whose project row shows no product write
// since the last refresh reads nothing. Words are never dropped (one no product holds finds
// no posting). Keyed by the project's incarnation: a project removed and made again, even
// within the same second, starts afresh (its versions and seqs start again).

interface Entry {
  vocabulary: Vocabulary;
  /** the highest seq read */
  seq: number;
  /** the products_version it was refreshed at */
  seen: number;
  refreshing: Promise<void> | null;
}

/** Projects kept per database before the oldest is let go. */
const MAX_PROJECTS = 64;

const byDatabase = new WeakMap<Kysely<Database>, Map<string, Entry>>();

export interface VocabularyScope {
  readonly id: string;
  readonly incarnation: string;
  readonly products_version: number;
}

/** The project's vocabulary as `db` shows it at least at the project's products_version. */
export async function vocabularyOf(db: Kysely<Database>, project: VocabularyScope): Promise<Vocabulary> {
  let entries = byDatabase.get(db);
  if (!entries) byDatabase.set(db, (entries = new Map<string, Entry>()));
  const key = `${project.id}\u0000${project.incarnation}`;
  let entry = entries.get(key);
  if (!entry) {
    if (entries.size >= MAX_PROJECTS) entries.delete(entries.keys().next().value!);
    entry = { vocabulary: new Vocabulary(), seq: -1, seen: -1, refreshing: null };
    entries.set(key, entry);
  }
  while (entry.seen < project.products_version) {
    entry.refreshing ??= refresh(db, project, entry).finally(() => (entry.refreshing = null));
    await entry.refreshing;
  }
  return entry.vocabulary;
}

async function refresh(db: Kysely<Database>, project: VocabularyScope, entry: Entry): Promise<void> {
  const target = project.products_version;
  const rows = await db
    .selectFrom('search_words')
    .select(['word', 'seq'])
    .where('project_id', '=', project.id)
    .where('seq', '>', entry.seq)
    .execute();
  for (const r of rows) {
    entry.vocabulary.add(r.word);
    entry.seq = Math.max(entry.seq, Number(r.seq));
  }
  // Sorted here, once per refresh, rather than by the first search's match.
  entry.vocabulary.fold();
  entry.seen = Math.max(entry.seen, target);
}
