import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { skipLocked } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import { signingSecrets } from './endpoints.js';
import { onWake } from './outbox.js';
import { retryDelay } from './schedule.js';
import { send } from './send.js';
import { signatureHeader } from './signing.js';

// The delivery worker, one in each `storefront serve` process (docs/ARCHITECTURE.md,
// "Webhooks"). It claims due deliveries by writing its lease on them, in one statement
// (PostgreSQL: FOR UPDATE SKIP LOCKED, so processes never wait on each other; SQLite: one
// writer at a time), so no two processes send the same delivery at once. Work comes from
// the outbox: this process's commits wake it at once, other processes' are found by polling.
// At most `concurrency` deliveries are in flight; HTTP answers never wait on any of them.

export interface WorkerOptions {
  db: Kysely<Database>;
  /** may deliveries reach loopback, private and link-local addresses (WEBHOOK_ALLOW_PRIVATE) */
  allowPrivate: boolean;
  /** the clock of the retry schedule, in milliseconds (tests move it; default: the system's) */
  now?: () => number;
  /** random numbers in [0, 1) for the jitter (tests fix them) */
  random?: () => number;
  /** deliveries in flight at most */
  concurrency?: number;
  /** how often other processes' work is looked for */
  pollMs?: number;
  /** a receiver's time to answer */
  timeoutMs?: number;
  log?: { warn(obj: object, msg: string): void; debug(obj: object, msg: string): void };
}

export const DELIVERY_TIMEOUT_MS = 15_000;
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_POLL_MS = 1000;
/** Succeeded deliveries are removed after this many days, failed ones (kept for replay) after RETAIN_FAILED_DAYS. */
export const RETAIN_SUCCEEDED_DAYS = 7;
export const RETAIN_FAILED_DAYS = 30;
const CLEANUP_EVERY_MS = 3_600_000;
const CLEANUP_BATCH = 1000;

interface Claimed {
  id: number;
  message_id: string;
  attempts: number;
  payload: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  endpoint_id: number;
}

export class DeliveryWorker {
  /** who holds a lease: this host, process and worker */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly db: Kysely<Database>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private inFlight = new Set<Promise<void>>();
  private running = false;
  private claiming = false;
  private again = false;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe?: () => void;

  constructor(private readonly options: WorkerOptions) {
    this.db = options.db;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    // Longer than an attempt can take: a lease outlives its attempt only when the process died.
    this.leaseMs = this.timeoutMs + 5000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = onWake(() => this.kick());
    this.timers.push(setInterval(() => this.kick(), this.options.pollMs ?? DEFAULT_POLL_MS).unref());
    this.timers.push(setInterval(() => void this.cleanUp().catch(() => {}), CLEANUP_EVERY_MS).unref());
    this.kick();
  }

  /** Stops claiming, and waits for the deliveries in flight (each ends within the timeout). */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    while (this.claiming || this.inFlight.size) await Promise.allSettled([...this.inFlight, delay(5)]);
  }

  /** Looks for due work now (coalesced: one claim at a time, another right after if asked). */
  kick(): void {
    if (!this.running) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = true;
    this.claimAndSend()
      .catch((err: unknown) => this.options.log?.warn({ err }, 'webhook claim failed; retrying at the next poll'))
      .finally(() => {
        this.claiming = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async claimAndSend(): Promise<void> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const claimed = await this.claim(free);
    for (const c of claimed) {
      const p: Promise<void> = this.deliver(c)
        .catch((err: unknown) =>
          this.options.log?.warn({ err, delivery: c.id }, 'webhook delivery could not be recorded'),
        )
        .finally(() => {
          this.inFlight.delete(p);
          this.kick();
        });
      this.inFlight.add(p);
    }
    if (claimed.length === free) this.again = true; // there may be more
  }

  /** Writes this worker's lease on up to `limit` due deliveries of enabled endpoints. */
  async claim(limit: number): Promise<Claimed[]> {
    const now = this.now();
    const db = this.db;
    let due = db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select('d.id')
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
      .where('e.disabled_at', 'is', null)
      .orderBy('d.next_attempt_at')
      .limit(limit);
    due = skipLocked(db, due, 'd');
    const ids = await db
      .updateTable('webhook_deliveries')
      .set({ lease_owner: this.owner, lease_until: now + this.leaseMs })
      .where('id', 'in', due)
      .returning('id')
      .execute();
    if (ids.length === 0) return [];
    return db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select([
        'd.id',
        'd.message_id',
        'd.attempts',
        'd.endpoint_id',
        'm.payload',
        'e.url',
        'e.secret',
        'e.previous_secret',
        'e.previous_secret_until',
      ])
      .where(
        'd.id',
        'in',
        ids.map((r) => r.id),
      )
      .execute();
  }

  private async deliver(c: Claimed): Promise<void> {
    // webhook-timestamp is the wall clock: receivers compare it with theirs (5 minutes' tolerance).
    const timestamp = Math.floor(Date.now() / 1000);
    const secrets = signingSecrets(c, Math.floor(this.now() / 1000));
    const result = await send(
      c.url,
      c.payload,
      {
        'webhook-id': c.message_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, c.message_id, timestamp, c.payload),
      },
      { timeoutMs: this.timeoutMs, allowPrivate: this.options.allowPrivate },
    );
    const now = this.now();
    const nowS = Math.floor(now / 1000);
    const attempt = c.attempts + 1;
    const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
    const wait = ok ? undefined : retryDelay(attempt, this.random);
    const log = ok ? 'debug' : 'warn';
    this.options.log?.[log](
      { webhookId: c.message_id, endpoint: c.endpoint_id, attempt, status: result.status, error: result.error },
      ok ? 'webhook delivered' : wait === undefined ? 'webhook failed for good' : 'webhook attempt failed',
    );
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: c.id,
          attempted_at: nowS,
          status: result.status ?? null,
          duration_ms: result.durationMs,
          response: result.response,
          error: result.error ?? null,
        })
        .execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({
          attempts: attempt,
          status: ok ? 'succeeded' : wait === undefined ? 'failed' : 'pending',
          next_attempt_at: wait === undefined ? now : now + wait,
          finished_at: ok || wait === undefined ? nowS : null,
          lease_owner: null,
          lease_until: null,
        })
        .where('id', '=', c.id)
        .where('lease_owner', '=', this.owner)
        .execute();
      if (result.status === 410)
        await trx
          .updateTable('webhook_endpoints')
          .set({ disabled_at: nowS, disabled_reason: 'the receiver answered 410 Gone' })
          .where('id', '=', c.endpoint_id)
          .where('disabled_at', 'is', null)
          .execute();
    });
  }

  /**
   * Removes deliveries that succeeded over RETAIN_SUCCEEDED_DAYS ago and failed ones over
   * RETAIN_FAILED_DAYS ago, with their attempts, then messages no delivery needs any more.
   */
  async cleanUp(): Promise<void> {
    const nowS = Math.floor(this.now() / 1000);
    const db = this.db;
    for (const [status, days] of [
      ['succeeded', RETAIN_SUCCEEDED_DAYS],
      ['failed', RETAIN_FAILED_DAYS],
    ] as const) {
      for (;;) {
        const ids = (
          await db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('status', '=', status)
            .where('finished_at', '<', nowS - days * 86_400)
            .limit(CLEANUP_BATCH)
            .execute()
        ).map((r) => r.id);
        if (ids.length === 0) break;
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', ids).execute();
          await trx.deleteFrom('webhook_deliveries').where('id', 'in', ids).execute();
        });
      }
    }
    for (;;) {
      const orphans = (
        await db
          .selectFrom('webhook_messages as m')
          .select('m.id')
          .where('m.created_at', '<', nowS - 60)
          .where((eb) =>
            eb.not(
              eb.exists(eb.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.message_id', '=', 'm.id')),
            ),
          )
          .limit(CLEANUP_BATCH)
          .execute()
      ).map((r) => r.id);
      if (orphans.length === 0) break;
      await db.deleteFrom('webhook_messages').where('id', 'in', orphans).execute();
    }
  }
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
