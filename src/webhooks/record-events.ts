import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
import { categoryRecord } from '../resources/categories/present.js';
import { presentOrder } from '../resources/orders/present.js';
import { itemsOf } from '../resources/orders/repository.js';
import { findPlans } from '../resources/plans/repository.js';
import { presentProduct } from '../resources/products/present.js';
import { categoryIdsOf } from '../resources/products/repository.js';
import type { Kind } from '../resources/registry.js';
import { presentUser } from '../resources/users/present.js';
import { subscriptionsOf } from '../resources/users/repository.js';
import type { EventType, WebhookEvent } from './events.js';

// The per-record events of a write: each record as the API presents it (a category in its
// flat record form, with parent_id), read inside the writing transaction.

export const EVENT_OF_KIND: Record<Kind, EventType> = {
  products: 'product.updated',
  orders: 'order.updated',
  categories: 'category.changed',
  plans: 'plan.changed',
  users: 'user.changed',
};

const CHUNK = 500;

/** The events of these records of one kind, in id order. */
export async function recordEvents(
  db: Kysely<Database>,
  projectId: string,
  kind: Kind,
  ids: number[],
): Promise<WebhookEvent[]> {
  const type = EVENT_OF_KIND[kind];
  const sorted = [...ids].sort((a, b) => a - b);
  const out: WebhookEvent[] = [];
  if (kind === 'plans') {
    const wanted = new Set(ids);
    for (const plan of await findPlans(db, projectId, {})) if (wanted.has(plan.id)) out.push({ type, data: plan });
    return out;
  }
  for (let i = 0; i < sorted.length; i += CHUNK) {
    const chunk = sorted.slice(i, i + CHUNK);
    for (const data of await presentChunk(db, projectId, kind, chunk)) out.push({ type, data });
  }
  return out;
}

async function presentChunk(db: Kysely<Database>, projectId: string, kind: Kind, ids: number[]): Promise<unknown[]> {
  const rows = <T extends 'products' | 'categories' | 'users' | 'orders'>(table: T) =>
    db
      .selectFrom(table as 'products')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute() as unknown as Promise<Selectable<Database[T]>[]>;
  switch (kind) {
    case 'products': {
      const [list, project, categories] = [
        await rows('products'),
        await db.selectFrom('projects').select('currency').where('id', '=', projectId).executeTakeFirstOrThrow(),
        await categoryIdsOf(db, projectId, ids),
      ];
      return list.map((r) => presentProduct(r, project.currency, categories.get(r.id) ?? []));
    }
    case 'categories':
      return (await rows('categories')).map(categoryRecord);
    case 'users': {
      const list = await rows('users');
      const subscriptions = await subscriptionsOf(db, projectId, ids);
      return list.map((r) => presentUser(r, subscriptions.get(r.id) ?? []));
    }
    case 'orders': {
      const list = await rows('orders');
      const items = await itemsOf(db, projectId, ids);
      return list.map((r) => presentOrder(r, items.get(r.id) ?? []));
    }
    default:
      return [];
  }
}
