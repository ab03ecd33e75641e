import type { Kysely } from 'kysely';
import { deletePostings, insertPostings, insertWords, type Posting } from '../../../db/search-words.js';
import type { Database } from '../../../db/schema.js';
import { eachStoredProduct } from '../stored-walk.js';
import { productWords } from './words.js';

// `q`'s index (migration 018), kept by every write of products in its own transaction
// through the products' tally (../tally.ts) and the update (../update.ts): a product's
// postings are taken out before it is rewritten or deleted and put back from its new
// search_text; new words join the vocabulary marked with the write's data_version, which is
// how the readers' vocabularies (vocabulary-cache.ts) learn them. The vocabulary keeps words
// no product holds any more: such a word finds no posting, and readers never drop one.

/** Postings held in memory before they are written (an import of millions writes as it goes). */
const PENDING = 20_000;

export class WordIndex {
  private postings: Posting[] = [];
  private words = new Set<string>();
  private seq: number | undefined;

  constructor(
    private readonly trx: Kysely<Database>,
    private readonly projectId: string,
  ) {}

  /** Before stored products are rewritten or deleted: their postings are taken out. */
  async remove(stored: readonly { id: number; search_text: string }[]): Promise<void> {
    await this.flush();
    const words = new Set<string>();
    for (const p of stored) for (const w of productWords(p.search_text).keys()) words.add(w);
    await deletePostings(
      this.trx,
      this.projectId,
      stored.map((p) => p.id),
      [...words],
    );
  }

  /** A product as written: its postings, written by flush(), or now when many are pending. */
  async add(id: number, searchText: string): Promise<void> {
    for (const [word, field] of productWords(searchText)) {
      this.postings.push({ word, product_id: id, field });
      this.words.add(word);
    }
    if (this.postings.length >= PENDING) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.postings.length === 0) return;
    const postings = this.postings;
    const words = [...this.words];
    this.postings = [];
    this.words = new Set();
    await insertPostings(this.trx, this.projectId, postings);
    await insertWords(this.trx, this.projectId, words, await this.version());
  }

  /** The write's data_version (bumped first by the write unit, so read once). */
  private async version(): Promise<number> {
    if (this.seq === undefined) {
      const row = await this.trx
        .selectFrom('projects')
        .select('data_version')
        .where('id', '=', this.projectId)
        .executeTakeFirstOrThrow();
      this.seq = Number(row.data_version);
    }
    return this.seq;
  }
}

/** Indexes every stored product of the project anew (the migration). */
export async function reindexWords(db: Kysely<Database>, projectId: string): Promise<void> {
  await db.deleteFrom('search_postings').where('project_id', '=', projectId).execute();
  const index = new WordIndex(db, projectId);
  await eachStoredProduct(db, projectId, (r) => index.add(r.id, r.search_text));
  await index.flush();
}
