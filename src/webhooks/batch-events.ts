import type { Kysely } from 'kysely';
import type { ChangeType } from '../changes/entry.js';
import type { Database } from '../db/schema.js';
import { type Kind, resourceOfType } from '../resources/registry.js';
import { cursorBefore } from './cursor.js';
import type { EventType, WebhookEvent } from './events.js';
import { enqueueEvents } from './outbox.js';
import { recordEvents } from './record-events.js';

// The webhook events of a batch write, an import or `storefront delete`, written in its
// transaction: `import.completed` with the counts and the change-feed cursor from just
// before it and, when the batch had at most PER_RECORD_LIMIT records, each changed record's
// own event first. "Each changed record" is read from the change log (src/changes/): the
// rows of this transaction's seq, so deletions and their cascades (an order whose item lost
// its product, a category's subtree) have their events too.

export const PER_RECORD_LIMIT = 1000;

export interface BatchSummary {
  /** records written, by kind */
  counts: Record<Kind, number>;
  /** records deleted, by kind */
  deleted: Record<Kind, number>;
  /** the project's data_version before the batch (undefined: the batch created the project) */
  versionBefore: number | undefined;
}

const DELETED_EVENT: Record<ChangeType, EventType> = {
  product: 'product.deleted',
  order: 'order.deleted',
  category: 'category.changed',
  plan: 'plan.changed',
  user: 'user.changed',
};

export async function enqueueBatchEvents(trx: Kysely<Database>, projectId: string, batch: BatchSummary): Promise<void> {
  await enqueueEvents(trx, projectId, async () => {
    const sum = (r: Record<Kind, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    const records = sum(batch.counts) + sum(batch.deleted);
    const perRecord = records <= PER_RECORD_LIMIT;
    const events = perRecord ? await changedRecordEvents(trx, projectId) : [];
    events.push({
      type: 'import.completed',
      data: {
        project_id: projectId,
        counts: batch.counts,
        deleted: batch.deleted,
        records,
        cursor: cursorBefore(batch.versionBefore),
        per_record_events: perRecord,
      },
    });
    return events;
  });
}

/** The event of every record this transaction changed, as the change log has it. */
async function changedRecordEvents(trx: Kysely<Database>, projectId: string): Promise<WebhookEvent[]> {
  const changes = await trx
    .selectFrom('changes')
    .select(['type', 'id', 'action'])
    .where('project_id', '=', projectId)
    .where('seq', '=', trx.selectFrom('projects').select('data_version').where('id', '=', projectId))
    .orderBy('type')
    .orderBy('id')
    .execute();
  const upserts = new Map<string, number[]>();
  const events: WebhookEvent[] = [];
  for (const c of changes) {
    if (c.action === 'delete')
      events.push({
        type: DELETED_EVENT[c.type as ChangeType],
        data: c.type === 'product' || c.type === 'order' ? { id: c.id } : { id: c.id, deleted: true },
      });
    else (upserts.get(c.type) ?? upserts.set(c.type, []).get(c.type)!).push(c.id);
  }
  for (const [type, ids] of upserts) {
    const resource = resourceOfType(type);
    if (resource) events.unshift(...(await recordEvents(trx, projectId, resource.kind, ids)));
  }
  return events;
}
