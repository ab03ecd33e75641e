import type { Kysely } from 'kysely';
import type { ChangeType } from '../changes/entry.js';
import type { Database } from '../db/schema.js';
import type { Viewer } from '../resources/descriptor.js';
import { type Kind, RESOURCES, resourceOfType } from '../resources/registry.js';
import { cursorBefore } from '../webhooks/cursor.js';
import type { WebhookEvent } from '../webhooks/events.js';
import type { ChangeSet } from './change-set.js';

// The webhook events of a write (docs/API.md, "Webhooks"), built from what the write declared
// it changed. An update sends each changed record's event; a batch (an import, a deletion,
// generate) sends `import.completed` with its counts and the change-feed cursor from just
// before it, preceded by each changed record's event when it changed at most LISTED records
// (cascades included). A record's body is its resource's presentByIds, read by primary key
// in the writing transaction, and only when an endpoint listens (enqueueEvents).

/** What a batch write reports in `import.completed`. */
export interface BatchCounts {
  /** records written, by kind */
  counts: Record<Kind, number>;
  /** records deleted, by kind (a category's subtree included) */
  deleted: Record<Kind, number>;
}

export function noCounts(): BatchCounts {
  const none = () => Object.fromEntries(RESOURCES.map((r) => [r.kind, 0])) as Record<Kind, number>;
  return { counts: none(), deleted: none() };
}

export async function eventsOf(
  trx: Kysely<Database>,
  projectId: string,
  changes: ChangeSet,
  batch: { counts: BatchCounts; versionBefore: number | undefined } | undefined,
): Promise<WebhookEvent[]> {
  const records = changes.records();
  const events = records ? await recordEvents(trx, projectId, records) : [];
  if (!batch) return events;
  const sum = (r: Record<Kind, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  events.push({
    type: 'import.completed',
    data: {
      project_id: projectId,
      counts: batch.counts.counts,
      deleted: batch.counts.deleted,
      records: sum(batch.counts.counts) + sum(batch.counts.deleted),
      cursor: await cursorBefore(trx, projectId, batch.versionBefore),
      per_record_events: records !== undefined,
    },
  });
  return events;
}

/** Each record's event, by type in registry order and then id: changes first, then deletions. */
async function recordEvents(
  trx: Kysely<Database>,
  projectId: string,
  records: { type: ChangeType; id: number; action: 'upsert' | 'delete' }[],
): Promise<WebhookEvent[]> {
  if (records.length === 0) return [];
  const { currency } = await trx
    .selectFrom('projects')
    .select('currency')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  // Webhook receivers are the project's own back office: they see hidden products and plans
  // of every status.
  const viewer: Viewer = { projectId, currency, includeHidden: true, everyStatus: true };
  const changed: WebhookEvent[] = [];
  const deleted: WebhookEvent[] = [];
  for (const resource of RESOURCES) {
    const ofType = records.filter((r) => r.type === resource.type).sort((a, b) => a.id - b.id);
    const upserts = ofType.filter((r) => r.action === 'upsert').map((r) => r.id);
    const shown = upserts.length ? await resource.presentByIds(trx, viewer, upserts) : new Map<number, unknown>();
    for (const id of upserts) {
      const data = shown.get(id);
      if (data !== undefined) changed.push({ type: resource.events.upsert, data });
    }
    for (const r of ofType) if (r.action === 'delete') deleted.push(deletionEvent(r.type, r.id));
  }
  return [...changed, ...deleted];
}

/**
 * A type with a deletion event of its own (`product.deleted`) says only the id; one whose
 * deletion shares the change event (`category.changed`) says `deleted: true` as well.
 */
function deletionEvent(type: ChangeType, id: number): WebhookEvent {
  const { events } = resourceOfType(type)!;
  return { type: events.delete, data: events.delete === events.upsert ? { id, deleted: true } : { id } };
}
