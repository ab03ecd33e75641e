import type { Kysely } from 'kysely';
import { inRestoreGap } from '../../../changes/restore-gaps.js';
import type { Reads } from '../../../db/reads.js';
import type { Database } from '../../../db/schema.js';
import { ALL_PRODUCTS } from '../counts.js';
import { categoryTree, type CategoryTree } from '../filters.js';
import { type IndexedProduct, MatchIndex } from './match-index.js';

// The match index (match-index.ts) read from the database: built page by page, then kept
// exact from the change log (docs/ARCHITECTURE.md, "What the change log guarantees"). The
// build first reads the project's data_version V, then the products in pages of their own
// statements: a page may show a product newer than V, never one older than V that changed
// before V. The first catch-up from V reads again every product changed after V, so the
// pages need no common snapshot (a read transaction held over a million rows would keep
// SQLite's WAL from being checkpointed). A catch-up reads, in one snapshot, the log after
// the index's version and those products; what the log cannot tell (a floor past that
// version, a new incarnation, a restore's gap) makes the caller build again.

/**
 * Products a build reads per statement. Each page is added on the event loop between two
 * reads, so the page bounds how long a build holds up the requests served beside it.
 */
const PAGE = 1_000;
/** Ids a catch-up reads per statement. */
const CHUNK = 1_000;
/** Changed products past which (and past half the index) a catch-up builds again. */
const REBUILD_PAST = 50_000;

const COLUMNS = [
  'id',
  'price',
  'inventory_type',
  'in_stock',
  'stock_quantity',
  'show_in_store',
  'created_at',
  'custom_sort',
  'search_text',
] as const;

/** A new index of the project, as of its data_version when the build began or later; undefined if the project is gone or another life. */
export async function buildIndex(
  db: Kysely<Database>,
  projectId: string,
  incarnation: string,
): Promise<MatchIndex | undefined> {
  const start = await db
    .selectFrom('projects')
    .select(['data_version', 'incarnation'])
    .where('id', '=', projectId)
    .executeTakeFirst();
  if (!start || start.incarnation !== incarnation) return undefined;
  const counted = await db
    .selectFrom('product_counts')
    .select('total')
    .where('project_id', '=', projectId)
    .where('category_id', '=', ALL_PRODUCTS)
    .executeTakeFirst();
  const index = new MatchIndex(incarnation, Number(counted?.total ?? 0));
  for (let after = -Infinity; ;) {
    let q = db.selectFrom('products').select(COLUMNS).where('project_id', '=', projectId);
    if (after !== -Infinity) q = q.where('id', '>', after);
    const rows = await q.orderBy('id').limit(PAGE).execute();
    if (rows.length === 0) break;
    const last = Number(rows[rows.length - 1].id);
    const links = await linksOf(db, projectId, (l) =>
      l.where('product_id', '>=', Number(rows[0].id)).where('product_id', '<=', last),
    );
    for (const r of rows) index.add({ ...r, id: Number(r.id), categories: links.get(Number(r.id)) ?? [] });
    after = last;
    if (rows.length < PAGE) break;
  }
  index.tree = await categoryTree(db, projectId);
  index.seen = Number(start.data_version);
  index.trim();
  return index;
}

/** What a catch-up read: the products changed since the index's version (undefined: gone), and the tree if it changed. */
export interface CatchUp {
  version: number;
  products: Map<number, IndexedProduct | undefined>;
  tree?: CategoryTree;
}

/** The changes after `index.seen`, read in one snapshot; 'rebuild' when the log cannot tell them. */
export async function readCatchUp(reads: Reads, projectId: string, index: MatchIndex): Promise<CatchUp | 'rebuild'> {
  return reads.exactSnapshot(async (db) => {
    const project = await db
      .selectFrom('projects')
      .select(['data_version', 'changes_floor', 'incarnation'])
      .where('id', '=', projectId)
      .executeTakeFirst();
    if (!project || project.incarnation !== index.incarnation) return 'rebuild';
    const version = Number(project.data_version);
    if (version < index.seen || Number(project.changes_floor) > index.seen) return 'rebuild';
    if (await inRestoreGap(db, projectId, index.seen)) return 'rebuild';
    const changed = await db
      .selectFrom('changes')
      .select(['type', 'id'])
      .where('project_id', '=', projectId)
      .where('seq', '>', index.seen)
      .where('type', 'in', ['product', 'category'])
      .execute();
    const ids = [...new Set(changed.filter((c) => c.type === 'product').map((c) => Number(c.id)))];
    // Most of the catalog changed (an import replacing it): read page by page in the background instead.
    if (ids.length > REBUILD_PAST && ids.length > index.size / 2) return 'rebuild';
    const products = new Map<number, IndexedProduct | undefined>(ids.map((id) => [id, undefined]));
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const rows = await db
        .selectFrom('products')
        .select(COLUMNS)
        .where('project_id', '=', projectId)
        .where('id', 'in', chunk)
        .execute();
      const links = await linksOf(db, projectId, (l) => l.where('product_id', 'in', chunk));
      for (const r of rows)
        products.set(Number(r.id), { ...r, id: Number(r.id), categories: links.get(Number(r.id)) ?? [] });
    }
    const tree = changed.some((c) => c.type === 'category') ? await categoryTree(db, projectId) : undefined;
    return { version, products, tree };
  });
}

/** Applies a catch-up (synchronously: no request reads the index half changed). */
export function applyCatchUp(index: MatchIndex, c: CatchUp): void {
  for (const [id, product] of c.products) index.put(id, product);
  if (c.tree) index.tree = c.tree;
  index.seen = Math.max(index.seen, c.version);
  index.compactIfWorth();
}

type Links = ReturnType<typeof linkQuery>;
function linkQuery(db: Kysely<Database>, projectId: string) {
  return db.selectFrom('product_categories').select(['product_id', 'category_id']).where('project_id', '=', projectId);
}

async function linksOf(
  db: Kysely<Database>,
  projectId: string,
  narrow: (q: Links) => Links,
): Promise<Map<number, number[]>> {
  const rows = await narrow(linkQuery(db, projectId)).orderBy('product_id').orderBy('category_id').execute();
  const out = new Map<number, number[]>();
  for (const r of rows) {
    const id = Number(r.product_id);
    let list = out.get(id);
    if (!list) out.set(id, (list = []));
    list.push(Number(r.category_id));
  }
  return out;
}
