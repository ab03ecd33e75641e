import { createHash } from 'node:crypto';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../errors.js';

// Idempotency-Key on keyed writes (POST, and the products batch's PATCH): the first answer is stored (per project and API key) and a retry
// with the same key and the same request gets that answer again, marked
// `Idempotent-Replayed: true`, without a second write. The same key with another request
// is a 409, as is a retry that arrives while the first is still being answered. Answers
// that say "try again" (429, 5xx) are not kept, so that the retry really runs.
//
// The key is reserved before the handler runs (an insert that only one process can win),
// so two concurrent retries cannot both write. A reservation left by a process that died
// mid-request is taken over after STALE_SECONDS.

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const STALE_SECONDS = 60;
const PURGE_EVERY_MS = 60_000;
/** Printable ASCII, 1 to 255 characters (also the header's pattern in the OpenAPI document). */
export const IDEMPOTENCY_KEY_PATTERN = '^[!-~]{1,255}$';
const WELL_FORMED = new RegExp(IDEMPOTENCY_KEY_PATTERN);
const WRITES = new Set(['POST', 'PATCH']);

/**
 * Whether a route takes Idempotency-Key: a write (POST, PATCH) made with a key, unless its answer holds a
 * secret (a key shown once), which must never be stored. This plugin refuses the header
 * elsewhere, and the OpenAPI document (src/openapi/transform.ts) lists it exactly here.
 */
export function takesIdempotencyKey(
  method: HTTPMethods | HTTPMethods[],
  config: Pick<FastifyContextConfig, 'auth' | 'answerHoldsSecret'>,
): boolean {
  return typeof method === 'string' && WRITES.has(method) && config.auth === 'key' && !config.answerHoldsSecret;
}

export interface IdempotencyClaim {
  projectId: string;
  keyId: number;
  key: string;
}

const now = () => Math.floor(Date.now() / 1000);

export default fp(
  async function idempotency(app: FastifyInstance) {
    app.decorateRequest('idempotency', null);
    const purge = { last: 0 };

    // Only a keyed write with the header has anything to do; every other request passes
    // through a plain callback (an async hook would cost a promise on every request).
    app.addHook('preHandler', (request, reply, done) => {
      if (!WRITES.has(request.method) || request.headers['idempotency-key'] === undefined || request.apiKeyId == null)
        return done();
      guard(app.storage.db, purge, request, reply).then((replayed) => {
        if (!replayed) done();
      }, done);
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      if (!request.idempotency) return done(null, payload);
      store(app.storage.db, request, reply, payload).then(() => done(null, payload), done);
    });
  },
  { name: 'idempotency', dependencies: ['storage', 'project-scope'] },
);

/** Claims the key, or refuses the request, or replays the stored answer (true). */
async function guard(
  db: Kysely<Database>,
  purge: { last: number },
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const header = request.headers['idempotency-key'];
  if (typeof header !== 'string' || !WELL_FORMED.test(header)) {
    throw new ApiError(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters', [
      { field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  if (!takesIdempotencyKey(request.method, request.routeOptions.config)) {
    throw new ApiError(400, 'Idempotency-Key is not accepted here: the answer holds a secret, which is never stored', [
      { field: 'Idempotency-Key', message: 'is not accepted on this route' },
    ]);
  }
  const t = now();
  if (Date.now() - purge.last > PURGE_EVERY_MS) {
    purge.last = Date.now();
    await db.deleteFrom('idempotency_keys').where('expires_at', '<', t).execute();
  }
  const id = { projectId: request.project.id, keyId: request.apiKeyId!, key: header };
  const hash = requestHash(request);
  const stored = await claim(db, id, hash, t);
  if (stored === 'claimed') {
    request.idempotency = id;
    return false;
  }
  if (stored.request_hash !== hash) {
    throw new ApiError(
      409,
      'this Idempotency-Key was already used for a different request; use a new key for a new request',
      [{ field: 'Idempotency-Key', message: 'was used for a different request' }],
    );
  }
  if (stored.status === null) {
    throw new ApiError(409, 'a request with this Idempotency-Key is still being answered; retry shortly', [
      { field: 'Idempotency-Key', message: 'is in use' },
    ]);
  }
  reply.header('idempotent-replayed', 'true');
  reply
    .code(stored.status)
    .type('application/json; charset=utf-8')
    .send(stored.body ?? '');
  return true;
}

/** Keeps the answer for replays; an answer that says "try again" frees the key instead. */
async function store(
  db: Kysely<Database>,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<void> {
  const pending = request.idempotency!;
  request.idempotency = null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a delete or a select builder alike
  const where = <Q extends { where: (...args: any[]) => Q }>(q: Q) =>
    q
      .where('project_id', '=', pending.projectId)
      .where('key_id', '=', pending.keyId)
      .where('idem_key', '=', pending.key);
  const retryable = reply.statusCode === 429 || reply.statusCode >= 500;
  try {
    if (retryable || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
      await where(db.deleteFrom('idempotency_keys')).execute();
    } else {
      await where(
        db.updateTable('idempotency_keys').set({ status: reply.statusCode, body: payload.toString() }),
      ).execute();
    }
  } catch (err) {
    // The answer itself is right and goes out; only its replay is lost. The reservation
    // stays and is taken over by a retry after STALE_SECONDS.
    request.log.error({ err }, 'could not store the answer of an Idempotency-Key request');
  }
}

/** Method, path and body with its keys sorted: the same request sent twice hashes alike. */
function requestHash(request: FastifyRequest): string {
  const path = request.url.split('?')[0].replace(/\/+$/, '');
  return createHash('sha256')
    .update(`${request.method} ${path}\n${canonical(request.body)}`)
    .digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

type Stored = { request_hash: string; status: number | null; body: string | null };

/** Reserves the key for this request, or returns what an earlier request left there. */
async function claim(db: Kysely<Database>, id: IdempotencyClaim, hash: string, t: number): Promise<'claimed' | Stored> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        project_id: id.projectId,
        key_id: id.keyId,
        idem_key: id.key,
        request_hash: hash,
        status: null,
        body: null,
        created_at: t,
        expires_at: t + IDEMPOTENCY_TTL_SECONDS,
      })
      .onConflict((oc) => oc.columns(['project_id', 'key_id', 'idem_key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return 'claimed';

    const existing = await db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status', 'body', 'created_at', 'expires_at'])
      .where('project_id', '=', id.projectId)
      .where('key_id', '=', id.keyId)
      .where('idem_key', '=', id.key)
      .executeTakeFirst();
    if (!existing) continue; // deleted in between (expired or retryable); try again
    const expired = existing.expires_at < t;
    const abandoned = existing.status === null && existing.created_at < t - STALE_SECONDS;
    if (!expired && !abandoned) return existing;
    // Take the old record over, but only if nobody else did in the meantime.
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ request_hash: hash, status: null, body: null, created_at: t, expires_at: t + IDEMPOTENCY_TTL_SECONDS })
      .where('project_id', '=', id.projectId)
      .where('key_id', '=', id.keyId)
      .where('idem_key', '=', id.key)
      .where('created_at', '=', existing.created_at)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) > 0) return 'claimed';
  }
  throw new ApiError(409, 'a request with this Idempotency-Key is still being answered; retry shortly', [
    { field: 'Idempotency-Key', message: 'is in use' },
  ]);
}
