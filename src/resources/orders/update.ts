import type { Kysely } from 'kysely';
import { forUpdate } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { writeProject } from '../../writes/write-project.js';
import type { OrderItemRow, OrderRow } from './present.js';
import { itemsOf } from './repository.js';
import type { OrderUpdate } from './schemas.js';

/**
 * Applies a partial update in one write of the project (src/writes/) and returns the order as
 * it now stands, with its items. Only the columns sent are written, and the row is locked
 * while it is read, so two concurrent updates of different fields both survive and each answer
 * shows a state that really existed. Undefined when there is no such order. `check` runs on
 * the locked current order before anything is written (If-Match): it throws to refuse the
 * update.
 */
export async function updateOrder(
  storage: { db: Kysely<Database> },
  projectId: string,
  id: number,
  changes: OrderUpdate,
  check?: (trx: Kysely<Database>, current: OrderRow) => Promise<void>,
): Promise<{ row: OrderRow; items: OrderItemRow[] } | undefined> {
  const write = await writeProject(storage, projectId, async (ctx) => {
    const trx = ctx.db;
    const select = trx.selectFrom('orders').selectAll().where('project_id', '=', projectId).where('id', '=', id);
    const current = await forUpdate(trx, select).executeTakeFirst();
    if (!current) return undefined;
    if (check) await check(trx, current);

    const set: Partial<OrderRow> = { updated_at: Math.floor(Date.now() / 1000) };
    if (changes.payment_status !== undefined) set.payment_status = changes.payment_status;
    if (changes.fulfillment_status !== undefined) set.fulfillment_status = changes.fulfillment_status;
    if (changes.is_canceled !== undefined) set.is_canceled = flag(changes.is_canceled);
    if (changes.is_archived !== undefined) set.is_archived = flag(changes.is_archived);
    if (changes.delivery_information !== undefined) set.delivery_information = changes.delivery_information;

    await trx.updateTable('orders').set(set).where('project_id', '=', projectId).where('id', '=', id).execute();
    await ctx.changed('order', [id]);
    const items = (await itemsOf(trx, projectId, [id])).get(id) ?? [];
    return { row: { ...current, ...set }, items };
  });
  return write.value;
}

/** `true`, `"true"` → 1; `false`, `"false"` → 0 (the schema lets nothing else through). */
function flag(value: boolean | 'true' | 'false'): number {
  return value === true || value === 'true' ? 1 : 0;
}
