import type { Kysely } from 'kysely';
import type { Storage } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { ensureProject } from '../writes/project.js';
import { type WriteContext, writeProject } from '../writes/write-project.js';
import type { ResourceDescriptor } from '../resources/descriptor.js';
import { type Ids, type PricedPlan, categories, leaves, order, plans, product, user } from './catalog.js';
import { categoriesDescriptor } from '../resources/categories/descriptor.js';
import { ordersDescriptor } from '../resources/orders/descriptor.js';
import { plansDescriptor } from '../resources/plans/descriptor.js';
import { productsDescriptor } from '../resources/products/descriptor.js';
import { usersDescriptor } from '../resources/users/descriptor.js';
import { bulkInserter } from '../db/bulk-insert.js';
import { type RecordWriter, recordWriter } from './record-writer.js';

// `storefront generate`: a realistic catalog written straight into the tables, in one
// transaction and in large batches. The records (catalog.ts) become rows through each
// resource's own mapping, as in an import; only the import's checks are skipped, which the
// records pass by construction (test/generate imports an export of a generated project).
// New records take ids after the project's highest ones, so generating into a project with
// data adds to it; a project's own categories and plans are used instead of new ones. It is
// a batch write of the write unit (src/writes/), as an import is: the change feed gets every
// record, and webhooks get `import.completed`.

export interface GenerateOptions {
  products: number;
  orders: number;
  users: number;
  onProgress?: (what: string, done: number, total: number) => void;
}

export interface GenerateSummary {
  projectId: string;
  /** what was added */
  counts: { categories: number; products: number; plans: number; users: number; orders: number };
  /** the categories and plans the project had, used instead of generated ones */
  kept: { categories: number; plans: number };
}

/** Rows per INSERT: large enough to amortise each statement, within SQLite's 32,766 parameters. */
const BATCH = 1000;

export async function generate(
  storage: Storage,
  projectId: string,
  options: GenerateOptions,
): Promise<GenerateSummary> {
  const now = Math.floor(Date.now() / 1000);
  const written = await writeProject(storage, projectId, (ctx) => generateIn(ctx, storage, options, now), {
    kind: 'batch',
  });
  return written.value;
}

/** The catalog written in the write unit's transaction; answers what was added and kept. */
async function generateIn(
  ctx: WriteContext,
  storage: Storage,
  options: GenerateOptions,
  now: number,
): Promise<GenerateSummary> {
  const { db: trx, projectId } = ctx;
  // Created when missing; an existing project keeps its name and currency.
  await ensureProject(ctx, { id: projectId, name: projectId, currency: 'USD' });
  const project = await trx
    .selectFrom('projects')
    .select('currency')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  const ids = await nextIds(trx, projectId);
  const writer = recordWriter(bulkInserter(storage, trx), { projectId, currency: project.currency, now }, ctx);
  const write: RecordWriter['write'] = async (resource, records) => {
    await writer.write(resource, records);
    ctx.count(resource.kind, 'counts', records.length);
  };
  /** `count` records of a resource, made one by one, written a batch at a time with progress. */
  const many = (resource: ResourceDescriptor, count: number, make: (i: number) => { id: number }) =>
    inBatches(count, options.onProgress && ((n) => options.onProgress!(resource.kind, n, count)), async (from, to) => {
      const made = [];
      for (let i = from; i < to; i++) made.push(make(i));
      await write(resource, made);
    });

  // A project that has categories or plans keeps them and gets none of ours: a second run
  // adds products, users and orders to the tree and the plans of the first.
  const existing = await existingCatalog(trx, projectId);
  const cats = existing.categories.length ? [] : categories(ids.category);
  await write(categoriesDescriptor, cats);
  const leafIds = leaves(cats.length ? cats : existing.categories);

  const planRecords = existing.plans.length ? [] : plans(ids);
  await write(plansDescriptor, planRecords);
  const pricedPlans = (
    planRecords.length ? planRecords.map((p) => ({ id: p.id, prices: p.prices!.map((c) => c.id!) })) : existing.plans
  ).filter((p) => p.prices.length > 0);

  await many(productsDescriptor, options.products, (i) => product(ids.product + i, i, options.products, leafIds));
  await many(usersDescriptor, options.users, (i) => user(ids.user + i, pricedPlans));
  // Items refer to products of this project: the generated ones, else whatever it had.
  const range: [number, number] =
    options.products > 0 ? [ids.product, ids.product + options.products - 1] : [1, ids.product - 1];
  await many(ordersDescriptor, options.orders, (i) => order(ids.order + i, range));

  return {
    projectId,
    kept: { categories: existing.categories.length, plans: existing.plans.length },
    counts: {
      categories: cats.length,
      products: options.products,
      plans: planRecords.length,
      users: options.users,
      orders: options.orders,
    },
  };
}

/** The project's categories (id and parent, for the leaves) and plans with their prices' ids. */
async function existingCatalog(
  db: Kysely<Database>,
  pid: string,
): Promise<{ categories: { id: number; parent_id: number | null }[]; plans: PricedPlan[] }> {
  const cats = await db.selectFrom('categories').select(['id', 'parent_id']).where('project_id', '=', pid).execute();
  const planIds = await db.selectFrom('plans').select('id').where('project_id', '=', pid).orderBy('id').execute();
  const prices = await db
    .selectFrom('plan_prices')
    .select(['id', 'plan_id'])
    .where('project_id', '=', pid)
    .orderBy('id')
    .execute();
  return {
    categories: cats.map((c) => ({ id: Number(c.id), parent_id: c.parent_id === null ? null : Number(c.parent_id) })),
    plans: planIds.map(({ id }) => ({
      id: Number(id),
      prices: prices.filter((p) => Number(p.plan_id) === Number(id)).map((p) => Number(p.id)),
    })),
  };
}

async function nextIds(db: Kysely<Database>, pid: string): Promise<Ids> {
  const max = async (table: 'categories' | 'products' | 'plans' | 'plan_prices' | 'users' | 'orders') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.max('id').as('m'))
          .where('project_id', '=', pid)
          .executeTakeFirst()
      )?.m ?? 0,
    ) + 1;
  return {
    category: await max('categories'),
    product: await max('products'),
    plan: await max('plans'),
    price: await max('plan_prices'),
    user: await max('users'),
    order: await max('orders'),
  };
}

async function inBatches(
  total: number,
  progress: ((done: number) => void) | undefined,
  write: (from: number, to: number) => Promise<void>,
): Promise<void> {
  for (let from = 0; from < total; from += BATCH) {
    const to = Math.min(total, from + BATCH);
    await write(from, to);
    progress?.(to);
  }
}
