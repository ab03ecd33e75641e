import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { RESOURCES } from '../resources/registry.js';
import { cursorBefore } from '../webhooks/cursor.js';
import type { WebhookEvent } from '../webhooks/events.js';
import { enqueueEvents } from '../webhooks/outbox.js';
import { recordEvents } from '../webhooks/record-events.js';
import type { ImportSession } from './session.js';

// The webhook events of an import, written in its transaction: `import.completed` with the
// counts and the change-feed cursor from just before the import, and, for an import of at
// most PER_RECORD_LIMIT records, each record's own event before it.

export const PER_RECORD_LIMIT = 1000;

export async function enqueueImportEvents(trx: Transaction<Database>, session: ImportSession): Promise<void> {
  const projectId = session.projectId!;
  await enqueueEvents(trx, projectId, async () => {
    const total = Object.values(session.counts).reduce((a, b) => a + b, 0);
    const events: WebhookEvent[] = [];
    if (total <= PER_RECORD_LIMIT)
      for (const { kind } of RESOURCES) events.push(...(await recordEvents(trx, projectId, kind, session.idsOf(kind))));
    events.push({
      type: 'import.completed',
      data: {
        project_id: projectId,
        counts: session.counts,
        records: total,
        cursor: cursorBefore(session.versionBefore),
        per_record_events: total <= PER_RECORD_LIMIT,
      },
    });
    return events;
  });
}
