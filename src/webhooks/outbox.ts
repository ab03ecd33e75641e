import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type WebhookEvent, eventBody, newMessageId, wants } from './events.js';

// The outbox (docs/ARCHITECTURE.md, "Webhooks"): every write path calls enqueueEvents inside
// its own transaction, so an event is stored exactly when its change commits, and a crash
// can lose neither without the other. The delivery worker (worker.ts) reads from here.

/** Rows per insert statement: well under SQLite's limit of bound values. */
const CHUNK = 500;

/**
 * Writes the events for every enabled endpoint of the project that wants them: a message
 * each, and a pending delivery per endpoint. A project without endpoints costs one indexed
 * read, and `events` may be a function, so that the records are only presented when
 * someone listens.
 */
export async function enqueueEvents(
  trx: Kysely<Database>,
  projectId: string,
  events: WebhookEvent[] | (() => Promise<WebhookEvent[]>),
  nowMs = Date.now(),
): Promise<number> {
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('project_id', '=', projectId)
    .where('disabled_at', 'is', null)
    .execute();
  if (endpoints.length === 0) return 0;
  const list = typeof events === 'function' ? await events() : events;
  const messages = [];
  const deliveries = [];
  for (const event of list) {
    const targets = endpoints.filter((e) => wants(e.events, event.type));
    if (targets.length === 0) continue;
    const id = newMessageId();
    messages.push({
      id,
      project_id: projectId,
      type: event.type,
      payload: eventBody(event, nowMs),
      created_at: Math.floor(nowMs / 1000),
    });
    for (const e of targets) deliveries.push({ message_id: id, endpoint_id: e.id, next_attempt_at: nowMs });
  }
  for (let i = 0; i < messages.length; i += CHUNK)
    await trx
      .insertInto('webhook_messages')
      .values(messages.slice(i, i + CHUNK))
      .execute();
  for (let i = 0; i < deliveries.length; i += CHUNK)
    await trx
      .insertInto('webhook_deliveries')
      .values(deliveries.slice(i, i + CHUNK))
      .execute();
  return messages.length;
}

const signal = new EventEmitter().setMaxListeners(0);

/**
 * Tells this process's delivery worker that events were committed: called by the write
 * paths after their transaction, so the worker delivers at once instead of at its next poll.
 * (Other processes' workers find them by polling.)
 */
export function wakeDelivery(): void {
  signal.emit('wake');
}

export function onWake(listener: () => void): () => void {
  signal.on('wake', listener);
  return () => signal.off('wake', listener);
}
