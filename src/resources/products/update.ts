import type { Kysely } from 'kysely';
import { inPlace } from '../../cache/invalidation.js';
import { forUpdate } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { invalid } from '../../errors.js';
import type { Ref } from '../../http/params.js';
import { type WriteContext, writeProject } from '../../writes/write-project.js';
import { productsDescriptor } from './descriptor.js';
import { categoryIdsOf } from './repository.js';
import { type ProductRow, nameKey, searchText } from './present.js';
import type { ProductUpdate } from './schemas.js';

/**
 * Applies a partial update in one write of the project (src/writes/). The row is locked
 * while the inventory rules are judged against the type the product will have after this
 * update, so two concurrent updates of different fields both survive. `check` runs on the
 * locked current row before anything is written (If-Match): it throws to refuse the update,
 * and then nothing changes. The updated row with its category ids, read in the write;
 * undefined when there is no such product.
 */
export async function updateProduct(
  storage: { db: Kysely<Database> },
  projectId: string,
  ref: Ref,
  changes: ProductUpdate,
  check?: (trx: Kysely<Database>, current: ProductRow) => Promise<void>,
): Promise<{ row: ProductRow; categoryIds: number[] } | undefined> {
  const write = await writeProject(storage, projectId, async (ctx) => {
    const trx = ctx.db;
    let q = trx.selectFrom('products').selectAll().where('project_id', '=', projectId);
    q = 'id' in ref ? q.where('id', '=', ref.id) : q.where('handle', '=', ref.handle);
    const current = await forUpdate(trx, q).executeTakeFirst();
    if (!current) return undefined;
    if (check) await check(trx, current);
    const writer = new ProductWriter(ctx, Math.floor(Date.now() / 1000));
    const row = await writer.apply(current, columnsToSet(current, changes));
    await writer.finish();
    const categoryIds = (await categoryIdsOf(trx, projectId, [current.id])).get(current.id) ?? [];
    return { row, categoryIds };
  });
  return write.value;
}

/**
 * Writes product updates inside one write of the project: each row's changed columns, the
 * search grams and `q`'s postings a new name moves, and the declared changes. A column equal to the stored
 * value is no change; an update that changes nothing writes nothing (CONTRACT 14's
 * "unchanged": no `updated_at`, no change-feed entry, no event).
 */
export class ProductWriter {
  private readonly inPlace: number[] = [];
  private readonly moved: number[] = [];
  private readonly renamed: { write: Partial<ProductRow>; row: ProductRow }[] = [];

  constructor(
    private readonly ctx: WriteContext,
    private readonly now: number,
  ) {}

  /** Writes what `set` changes of `current` (a rename at finish); answers the row as it will be. */
  async apply(current: ProductRow, set: Partial<ProductRow>): Promise<ProductRow> {
    const changed = Object.keys(set).filter(
      (column) => set[column as keyof ProductRow] !== current[column as keyof ProductRow],
    );
    if (changed.length === 0) return current;
    const write: Partial<ProductRow> = { updated_at: this.now };
    for (const column of changed) Object.assign(write, { [column]: set[column as keyof ProductRow] });
    const row = { ...current, ...write };
    // A new name moves the kept search-gram counts and `q`'s postings: renamed products are
    // written together at finish, so the tally reads them as stored in one pass, not one by one.
    if (write.search_text !== undefined) this.renamed.push({ write, row });
    else await this.update(current.id, write);
    // Fields no list reads move the product in no list: the lists' totals stay (cache/invalidation.ts).
    (inPlace(changed) ? this.inPlace : this.moved).push(current.id);
    return row;
  }

  /** Writes the renames and declares the changes: call once, after the last apply. */
  async finish(): Promise<void> {
    if (this.renamed.length > 0) {
      const tally = this.ctx.tally(productsDescriptor);
      const ids = this.renamed.map(({ row }) => row.id);
      // The tally takes the products out as stored, and back as written (tally.ts).
      await tally?.remove(ids);
      for (const { row, write } of this.renamed) await this.update(row.id, write);
      const categories = await categoryIdsOf(this.ctx.db, this.ctx.projectId, ids);
      await tally?.add(
        this.renamed.map(({ row }) => ({
          row,
          children: { product_categories: (categories.get(row.id) ?? []).map((category_id) => ({ category_id })) },
        })),
      );
    }
    await this.ctx.changedInPlace('product', this.inPlace);
    await this.ctx.changed('product', this.moved);
  }

  private async update(id: number, write: Partial<ProductRow>): Promise<void> {
    await this.ctx.db
      .updateTable('products')
      .set(write)
      .where('project_id', '=', this.ctx.projectId)
      .where('id', '=', id)
      .execute();
  }
}

/** The columns an update sets, judged against the current row (a 400 for what cannot apply). */
export function columnsToSet(current: ProductRow, changes: ProductUpdate): Partial<ProductRow> {
  const type = changes.inventory_type ?? current.inventory_type;
  if (changes.in_stock !== undefined && type === 'advanced') {
    throw invalid(
      'in_stock',
      'applies only to simple products; this product is advanced (send stock_quantity instead)',
    );
  }
  if (changes.stock_quantity !== undefined && type === 'simple') {
    throw invalid(
      'stock_quantity',
      'applies only to advanced products; this product is simple (send in_stock instead)',
    );
  }
  if (changes.name !== undefined && changes.name.trim() === '') throw invalid('name', 'must not be only white space');

  const set: Partial<ProductRow> = {};
  if (changes.name !== undefined) {
    set.name = changes.name;
    set.name_key = nameKey(changes.name);
    set.search_text = searchText(changes.name, current.description, current.sku);
  }
  if (changes.price !== undefined) set.price = changes.price;
  if (changes.inventory_type !== undefined) set.inventory_type = changes.inventory_type;
  if (changes.in_stock !== undefined) set.in_stock = changes.in_stock ? 1 : 0;
  if (changes.stock_quantity !== undefined) set.stock_quantity = changes.stock_quantity;
  return set;
}
