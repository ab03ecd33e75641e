import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { DerivedTally, RecordRows } from '../descriptor.js';
import { CountDeltas, writeCountDeltas } from './counts.js';
import { GramDeltas } from './gram-deltas.js';
import { writeGramDeltas } from './grams.js';
import { WordIndex } from './search/postings.js';

/** Ids a read by primary key names at once. */
const READ = 500;

/**
 * The products' derived rows, the kept counts (counts.ts) and the kept search-gram counts
 * (grams.ts), tallied for one write transaction: stored products are read by primary key
 * only, and the sums are written by finish().
 */
export class ProductTally implements DerivedTally {
  private counts = new CountDeltas();
  private grams = new GramDeltas();
  private readonly words: WordIndex;

  constructor(
    private readonly trx: Kysely<Database>,
    private readonly projectId: string,
  ) {
    this.words = new WordIndex(trx, projectId);
  }

  async remove(ids: number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += READ) {
      const chunk = ids.slice(i, i + READ);
      const stored = await this.trx
        .selectFrom('products')
        .select(['id', 'show_in_store', 'search_text'])
        .where('project_id', '=', this.projectId)
        .where('id', 'in', chunk)
        .execute();
      if (stored.length === 0) continue;
      const links = await this.trx
        .selectFrom('product_categories')
        .select(['product_id', 'category_id'])
        .where('project_id', '=', this.projectId)
        .where(
          'product_id',
          'in',
          stored.map((p) => p.id),
        )
        .execute();
      const categories = new Map<number, number[]>(stored.map((p) => [p.id, []]));
      for (const l of links) categories.get(l.product_id)?.push(l.category_id);
      for (const p of stored) this.take(p.search_text, p.show_in_store === 1, categories.get(p.id)!, -1);
      await this.words.remove(stored);
    }
  }

  async add(written: readonly RecordRows[]): Promise<void> {
    for (const { row, children } of written) {
      const categories = (children.product_categories ?? []).map((l) => l.category_id as number);
      this.take(row.search_text as string, row.show_in_store === 1, categories, 1);
      await this.words.add(row.id, row.search_text as string);
    }
  }

  async finish(): Promise<void> {
    await writeCountDeltas(this.trx, this.projectId, this.counts);
    await writeGramDeltas(this.trx, this.projectId, this.grams);
    await this.words.flush();
    this.counts = new CountDeltas();
    this.grams = new GramDeltas();
  }

  private take(searchText: string, visible: boolean, categoryIds: number[], sign: 1 | -1): void {
    this.counts.add(categoryIds, visible, sign);
    this.grams.add(searchText, visible, sign);
  }
}
