import { type Kysely, sql } from 'kysely';
import type { Storage } from '../db/connect.js';
import { bumpDataVersion } from '../db/data-version.js';
import type { Database } from '../db/schema.js';
import { type Ids, categories, leaves, order, plans, product, user } from './catalog.js';
import { rowWriter } from './row-writer.js';
import { categoryRow, orderRows, planRows, productRows, userRows } from './rows.js';

// `storefront generate`: a realistic catalog written straight into the tables, in one
// transaction and in large batches. New records take ids after the project's highest ones,
// so generating into a project with data adds to it. The project's data_version is bumped
// in the same transaction, like every other write path.

export interface GenerateOptions {
  products: number;
  orders: number;
  users: number;
  onProgress?: (what: string, done: number, total: number) => void;
}

export interface GenerateSummary {
  projectId: string;
  counts: { categories: number; products: number; plans: number; users: number; orders: number };
}

/** Rows per INSERT: large enough to amortise each statement, within SQLite's 32,766 parameters. */
const BATCH = 1000;

export async function generate(
  storage: Storage,
  projectId: string,
  options: GenerateOptions,
): Promise<GenerateSummary> {
  const db = storage.db;
  const summary = await db.transaction().execute(async (trx) => {
    const insertAll = rowWriter(storage, trx);
    const now = Math.floor(Date.now() / 1000);
    // Created when missing; an existing project keeps its name and currency.
    await trx
      .insertInto('projects')
      .values({ id: projectId, name: projectId, currency: 'USD', created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await bumpDataVersion(trx, projectId);
    const project = await trx
      .selectFrom('projects')
      .select('currency')
      .where('id', '=', projectId)
      .executeTakeFirstOrThrow();
    const ids = await nextIds(trx, projectId);

    const cats = categories(ids.category);
    await insertAll(
      'categories',
      cats.map((c) => categoryRow(projectId, c)),
    );
    const leafIds = leaves(cats);

    const planRecords = plans(ids);
    const planned = planRecords.map((p) => planRows(projectId, p));
    await insertAll(
      'plans',
      planned.map((p) => p.row),
    );
    await insertAll(
      'plan_prices',
      planned.flatMap((p) => p.prices),
    );

    await inBatches(
      options.products,
      options.onProgress && ((n) => options.onProgress!('products', n, options.products)),
      async (from, to) => {
        const made = [];
        for (let i = from; i < to; i++)
          made.push(productRows(projectId, product(ids.product + i, i, options.products, leafIds)));
        await insertAll(
          'products',
          made.map((m) => m.row),
        );
        await insertAll(
          'product_categories',
          made.flatMap((m) => m.links),
        );
      },
    );

    await inBatches(
      options.users,
      options.onProgress && ((n) => options.onProgress!('users', n, options.users)),
      async (from, to) => {
        const made = [];
        for (let i = from; i < to; i++) made.push(userRows(projectId, user(ids.user + i, ids)));
        await insertAll(
          'users',
          made.map((m) => m.row),
        );
        await insertAll(
          'subscriptions',
          made.flatMap((m) => m.subscriptions),
        );
      },
    );

    // Items refer to products of this project: the generated ones, else whatever it had.
    const range: [number, number] =
      options.products > 0 ? [ids.product, ids.product + options.products - 1] : [1, ids.product - 1];
    await inBatches(
      options.orders,
      options.onProgress && ((n) => options.onProgress!('orders', n, options.orders)),
      async (from, to) => {
        const made = [];
        for (let i = from; i < to; i++) made.push(orderRows(projectId, order(ids.order + i, range), project.currency));
        await insertAll(
          'orders',
          made.map((m) => m.row),
        );
        await insertAll(
          'order_items',
          made.flatMap((m) => m.items),
        );
      },
    );

    return {
      projectId,
      counts: {
        categories: cats.length,
        products: options.products,
        plans: planRecords.length,
        users: options.users,
        orders: options.orders,
      },
    };
  });
  // Fresh statistics, so that the planner knows the new sizes at once.
  await sql`analyze`.execute(db);
  return summary;
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
