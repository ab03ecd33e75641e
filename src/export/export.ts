import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { findPlans } from '../resources/plans/repository.js';
import { findProject } from '../resources/projects/repository.js';

// `storefront export <project>`: the project's data as a JSON document in the import format,
// written as it is read (pages of rows by id), so a project of millions of products exports
// in bounded memory. Each record sits on a line of its own.

const PAGE = 1000;

export class ExportError extends Error {}

export async function exportProject(db: Kysely<Database>, projectId: string, out: Writable): Promise<void> {
  const project = await findProject(db, projectId);
  if (!project) throw new ExportError(`project "${projectId}" not found`);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`{"project":${JSON.stringify({ id: project.id, name: project.name, currency: project.currency })}`);

  await section(write, 'categories', (after) =>
    db
      .selectFrom('categories')
      .select(['id', 'handle', 'name', 'parent_id', 'created_at', 'updated_at'])
      .where('project_id', '=', projectId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute(),
  );

  await section(write, 'products', async (after) => {
    const rows = await db
      .selectFrom('products')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return [];
    const links = await db
      .selectFrom('product_categories')
      .select(['product_id', 'category_id'])
      .where('project_id', '=', projectId)
      .where('product_id', '>=', rows[0].id)
      .where('product_id', '<=', rows[rows.length - 1].id)
      .orderBy('product_id')
      .orderBy('category_id')
      .execute();
    const categoryIds = groupBy(links, (l) => l.product_id);
    return rows.map((r) => ({
      id: r.id,
      handle: r.handle,
      name: r.name,
      description: r.description,
      sku: r.sku,
      price: r.price,
      inventory_type: r.inventory_type,
      in_stock: r.in_stock === 1,
      stock_quantity: r.stock_quantity,
      show_in_store: r.show_in_store === 1,
      custom_sort: r.custom_sort,
      category_ids: (categoryIds.get(r.id) ?? []).map((l) => l.category_id),
      images: JSON.parse(r.images) as { url: string; alt: string }[],
      created_at: r.created_at,
      updated_at: r.updated_at,
    }));
  });

  const plans = await findPlans(db, projectId, {});
  await section(write, 'plans', async (after) => (after === 0 ? plans : []));

  await section(write, 'users', async (after) => {
    const rows = await db
      .selectFrom('users')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return [];
    const subs = await db
      .selectFrom('subscriptions')
      .selectAll()
      .where('project_id', '=', projectId)
      .where(
        'user_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('user_id')
      .orderBy('position')
      .execute();
    const byUser = groupBy(subs, (s) => s.user_id);
    return rows.map((r) => ({
      id: r.id,
      email: r.email,
      name: r.name,
      email_verified: r.email_verified === 1,
      created_at: r.created_at,
      last_login_at: r.last_login_at,
      subscriptions: (byUser.get(r.id) ?? []).map((s) => ({
        plan_id: s.plan_id,
        price_id: s.price_id,
        status: s.status,
        started_at: s.started_at,
        canceled_at: s.canceled_at,
      })),
    }));
  });

  await section(write, 'orders', async (after) => {
    const rows = await db
      .selectFrom('orders')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return [];
    const items = await db
      .selectFrom('order_items')
      .selectAll()
      .where('project_id', '=', projectId)
      .where(
        'order_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('order_id')
      .orderBy('position')
      .execute();
    const byOrder = groupBy(items, (i) => i.order_id);
    return rows.map((r) => ({
      id: r.id,
      customer_email: r.customer_email,
      customer_name: r.customer_name,
      items: (byOrder.get(r.id) ?? []).map((i) => ({
        product_id: i.product_id,
        name: i.name,
        quantity: i.quantity,
        price: i.price,
      })),
      total: r.total,
      currency: r.currency,
      payment_status: r.payment_status,
      fulfillment_status: r.fulfillment_status,
      is_canceled: r.is_canceled === 1,
      is_archived: r.is_archived === 1,
      delivery_information: r.delivery_information,
      created_at: r.created_at,
      updated_at: r.updated_at,
    }));
  });
  await write('}\n');
}

/** Writes `,"name":[…]` page by page; `page(after)` returns the rows with id > after. */
async function section(
  write: (t: string) => Promise<void>,
  name: string,
  page: (after: number) => Promise<{ id: number }[]>,
): Promise<void> {
  await write(`,\n"${name}":[`);
  let after = 0;
  let first = true;
  for (;;) {
    const rows = await page(after);
    if (rows.length === 0) break;
    for (const row of rows) {
      await write(`${first ? '\n' : ',\n'}${JSON.stringify(row)}`);
      first = false;
    }
    after = rows[rows.length - 1].id;
  }
  await write(first ? ']' : '\n]');
}

function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}
