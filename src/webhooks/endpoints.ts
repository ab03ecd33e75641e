import type { Kysely, Selectable } from 'kysely';
import type { Storage } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import type { WebhookEndpointTable } from '../db/schema-queues.js';
import { type EventType, eventsOf, eventsText } from './events.js';
import { wakeDelivery } from './outbox.js';
import { newSecret } from './signing.js';

// A project's webhook endpoints, their deliveries and replays: shared by the CLI
// (src/cli/webhook.ts) and the HTTP API (src/resources/webhooks/). Queries that come from
// HTTP name the project, so another project's endpoint is a 404 like an unknown one.

export type EndpointRow = Selectable<WebhookEndpointTable>;

/** An endpoint as listed: never its secret. */
export interface EndpointInfo {
  id: number;
  url: string;
  /** the event types sent; null: every type */
  events: EventType[] | null;
  created_at: number;
  /** unix seconds; null while enabled */
  disabled_at: number | null;
  disabled_reason: string | null;
  /** during a secret roll: when the previous secret stops signing; null otherwise */
  previous_secret_until: number | null;
}

export function endpointInfo(row: EndpointRow, nowS: number): EndpointInfo {
  const rolling = row.previous_secret_until !== null && row.previous_secret_until > nowS;
  return {
    id: row.id,
    url: row.url,
    events: row.events === '' ? null : eventsOf(row.events),
    created_at: row.created_at,
    disabled_at: row.disabled_at,
    disabled_reason: row.disabled_reason,
    previous_secret_until: rolling ? row.previous_secret_until : null,
  };
}

export const MAX_ENDPOINTS_PER_PROJECT = 20;
/** A secret roll keeps the old secret signing this long unless told otherwise (CONTRACT 13): a receiver not yet given the new one goes on verifying. */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 86_400;
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 86_400;

export class TooManyEndpoints extends Error {}

/** Creates an endpoint with a new secret; the secret is in this answer only. */
export async function createEndpoint(
  storage: Pick<Storage, 'db'>,
  projectId: string,
  url: string,
  events: EventType[] | undefined,
  nowS: number,
): Promise<{ info: EndpointInfo; secret: string }> {
  return storage.db.transaction().execute(async (trx) => {
    const count = await trx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_ENDPOINTS_PER_PROJECT)
      throw new TooManyEndpoints(`a project has at most ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints`);
    const secret = newSecret();
    const row = await trx
      .insertInto('webhook_endpoints')
      .values({ project_id: projectId, url, events: eventsText(events), secret, created_at: nowS })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { info: endpointInfo(row, nowS), secret };
  });
}

export async function listEndpoints(
  storage: Pick<Storage, 'db'>,
  projectId: string,
  nowS: number,
): Promise<EndpointInfo[]> {
  const rows = await storage.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute();
  return rows.map((r) => endpointInfo(r, nowS));
}

export async function findEndpoint(
  db: Kysely<Database>,
  id: number,
  projectId?: string,
): Promise<EndpointRow | undefined> {
  let q = db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id);
  if (projectId !== undefined) q = q.where('project_id', '=', projectId);
  return q.executeTakeFirst();
}

/** Whether the project has an endpoint with this id. */
export async function hasEndpoint(storage: Pick<Storage, 'db'>, id: number, projectId: string): Promise<boolean> {
  return (await findEndpoint(storage.db, id, projectId)) !== undefined;
}

/** Deletes the endpoint with its deliveries and their attempts; false when there is none. */
export async function deleteEndpoint(storage: Pick<Storage, 'db'>, id: number, projectId?: string): Promise<boolean> {
  return storage.db.transaction().execute(async (trx) => {
    if (!(await findEndpoint(trx, id, projectId))) return false;
    const deliveries = trx.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', id);
    await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
    await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
    await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
    return true;
  });
}

/** Enables an endpoint that a 410 disabled: its waiting deliveries go out again. */
export async function enableEndpoint(
  storage: Pick<Storage, 'db'>,
  id: number,
  nowS: number,
  projectId?: string,
): Promise<EndpointInfo | undefined> {
  let q = storage.db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: null, disabled_reason: null })
    .where('id', '=', id);
  if (projectId !== undefined) q = q.where('project_id', '=', projectId);
  const row = await q.returningAll().executeTakeFirst();
  if (row) wakeDelivery();
  return row && endpointInfo(row, nowS);
}

/**
 * A new secret; the old one keeps signing for `overlapSeconds` (every delivery then carries
 * both signatures), so receivers can switch without refusing a delivery.
 */
export async function rollSecret(
  storage: Pick<Storage, 'db'>,
  id: number,
  overlapSeconds: number,
  nowS: number,
  projectId?: string,
): Promise<{ info: EndpointInfo; secret: string } | undefined> {
  return storage.db.transaction().execute(async (trx) => {
    const row = await findEndpoint(trx, id, projectId);
    if (!row) return undefined;
    const secret = newSecret();
    const updated = await trx
      .updateTable('webhook_endpoints')
      .set({
        secret,
        previous_secret: overlapSeconds > 0 ? row.secret : null,
        previous_secret_until: overlapSeconds > 0 ? nowS + overlapSeconds : null,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { info: endpointInfo(updated, nowS), secret };
  });
}

/** The secrets that sign a delivery now: the current one, and the previous during a roll. */
export function signingSecrets(
  row: Pick<EndpointRow, 'secret' | 'previous_secret' | 'previous_secret_until'>,
  nowS: number,
): string[] {
  return row.previous_secret && (row.previous_secret_until ?? 0) > nowS
    ? [row.secret, row.previous_secret]
    : [row.secret];
}

export interface AttemptInfo {
  attempted_at: number;
  status: number | null;
  duration_ms: number;
  response: string;
  error: string | null;
}

export interface DeliveryInfo {
  message_id: string;
  type: EventType;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: AttemptInfo[];
  created_at: number;
  /** unix seconds of the next attempt, while pending */
  next_attempt_at: number | null;
  finished_at: number | null;
}

export const DELIVERIES_SHOWN = 100;

/**
 * The endpoint's latest deliveries, newest first, each with its attempts (oldest first);
 * undefined when there is no such endpoint (of this project, when one is named).
 */
export async function listDeliveries(
  storage: Pick<Storage, 'db'>,
  endpointId: number,
  projectId?: string,
): Promise<DeliveryInfo[] | undefined> {
  const db = storage.db;
  if (!(await findEndpoint(db, endpointId, projectId))) return undefined;
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
    .select(['d.id', 'd.message_id', 'm.type', 'd.status', 'd.next_attempt_at', 'd.finished_at', 'm.created_at'])
    .where('d.endpoint_id', '=', endpointId)
    .orderBy('d.id', 'desc')
    .limit(DELIVERIES_SHOWN)
    .execute();
  const attempts = new Map<number, AttemptInfo[]>(rows.map((r) => [r.id, []]));
  if (rows.length) {
    const all = await db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'attempted_at', 'status', 'duration_ms', 'response', 'error'])
      .where(
        'delivery_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('id')
      .execute();
    for (const { delivery_id, ...a } of all) attempts.get(delivery_id)?.push(a);
  }
  return rows.map((r) => ({
    message_id: r.message_id,
    type: r.type as EventType,
    status: r.status,
    attempts: attempts.get(r.id)!,
    created_at: r.created_at,
    next_attempt_at: r.status === 'pending' ? Math.ceil(r.next_attempt_at / 1000) : null,
    finished_at: r.finished_at,
  }));
}

/**
 * Sends a message again to every endpoint it was for (succeeded, failed or pending alike),
 * with a fresh retry schedule; the attempts so far stay in the log. The endpoints it will
 * go to, or undefined when the message is unknown (or of another project).
 */
export async function replayMessage(
  storage: Pick<Storage, 'db'>,
  messageId: string,
  nowMs: number,
  projectId?: string,
): Promise<{ endpoint_id: number; disabled: boolean }[] | undefined> {
  const result = await storage.db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('webhook_messages').select('id').where('id', '=', messageId);
    if (projectId !== undefined) q = q.where('project_id', '=', projectId);
    if (!(await q.executeTakeFirst())) return undefined;
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt_at: nowMs, finished_at: null })
      .where('message_id', '=', messageId)
      .execute();
    return trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select(['d.endpoint_id', 'e.disabled_at'])
      .where('d.message_id', '=', messageId)
      .orderBy('d.endpoint_id')
      .execute();
  });
  if (!result) return undefined;
  wakeDelivery();
  return result.map((r) => ({ endpoint_id: r.endpoint_id, disabled: r.disabled_at !== null }));
}
