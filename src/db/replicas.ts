import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { DEFAULT_REPLICA_MAX_LAG_MS } from '../config.js';
import { type PoolOptions, namingStatements, openPool, releasingBroken } from './pg-pool.js';
import { type Reads, readsOver } from './reads.js';
import { fallingBack } from './replica-pool.js';
import type { Database } from './schema.js';

// The read replicas of DATABASE_REPLICA_URLS (CONTRACT 16) and their health. Every probe
// (a fifth of REPLICA_MAX_LAG_MS, between 50 ms and 1 s) reads the primary's WAL position
// and each replica's replayed position. A replica's lag is how long ago the primary first
// showed a position the replica has not replayed yet (0 when it has replayed all the primary
// had): a replica whose replay is paused, or that cannot keep up, lags more every probe even
// while no request reads it, and an idle primary leaves a caught-up replica at 0. A replica
// that does not answer a probe within a second, fails a statement (replica-pool.ts) or lags
// more than REPLICA_MAX_LAG_MS is left out (`usable()`) until a probe finds it well again.
//
// Correctness does not rest on the lag: a request reads its project row on the replica and
// goes elsewhere when the row is older than the version it must see (reads.ts). The lag limit
// bounds how old an answer can be for a caller that sent no version and wrote nothing here.

const PROBE_TIMEOUT_MS = 1000;
const MAX_SAMPLES = 10_000;

export interface ReplicaState {
  /** host:port/database, no credentials */
  name: string;
  /** reads go to it */
  up: boolean;
  /** its lag at the last probe, in milliseconds; null when the probe failed */
  lagMs: number | null;
  /** statements it answered */
  statements: number;
  /** why it is left out, when it is */
  reason?: string;
}

export interface ReplicaOptions extends PoolOptions {
  maxLagMs?: number;
}

class Replica {
  up = false;
  lagMs: number | null = null;
  statements = 0;
  reason? = 'not probed yet';
  /** the WAL position it had replayed at its last good probe */
  replayed = 0n;
  reads!: Reads;
  constructor(
    readonly name: string,
    readonly pool: pg.Pool,
  ) {}
}

export class ReplicaSet {
  private readonly replicas: Replica[];
  private readonly maxLagMs: number;
  private readonly every: number;
  /** the primary's WAL positions, each with when it was first seen; oldest first */
  private samples: { at: number; lsn: bigint }[] = [];
  private turn = 0;
  private probing = false;
  private readonly timer: NodeJS.Timeout;
  /** statements the primary answered through a read handle (its own, or in a failed replica's place) */
  primaryStatements = 0;

  constructor(
    private readonly primary: pg.Pool,
    urls: readonly string[],
    options: ReplicaOptions,
    /** the primary's read handle: a snapshot a replica lost restarts there */
    primaryReads: () => Reads,
  ) {
    this.maxLagMs = options.maxLagMs ?? DEFAULT_REPLICA_MAX_LAG_MS;
    this.every = Math.min(1000, Math.max(50, Math.floor(this.maxLagMs / 5)));
    const onPrimary = releasingBroken(primary);
    this.replicas = urls.map((url, i) => {
      const replica = new Replica(nameOf(url, i, urls), openPool(url, options));
      const link = {
        served: () => void replica.statements++,
        servedByPrimary: () => void this.primaryStatements++,
        failed: (error: unknown) => this.leaveOut(replica, `failed: ${(error as Error)?.message ?? String(error)}`),
      };
      const pool = releasingBroken(replica.pool);
      const general = new Kysely<Database>({
        dialect: new PostgresDialect({ pool: fallingBack(pool, onPrimary, link) }),
      });
      const point = new Kysely<Database>({
        dialect: new PostgresDialect({ pool: fallingBack(namingStatements(pool), onPrimary, link) }),
      });
      replica.reads = readsOver(general, general, point, { source: replica.name, primary: primaryReads });
      return replica;
    });
    this.timer = setInterval(() => void this.probe(), this.every).unref();
    setImmediate(() => void this.probe());
  }

  /** The handles of the replicas reads may go to, each in turn first. */
  usable(): Reads[] {
    const up = this.replicas.filter((r) => r.up);
    if (up.length < 2) return up.map((r) => r.reads);
    const first = this.turn++ % up.length;
    return [...up.slice(first), ...up.slice(0, first)].map((r) => r.reads);
  }

  state(): ReplicaState[] {
    return this.replicas.map((r) => ({
      name: r.name,
      up: r.up,
      lagMs: r.lagMs,
      statements: r.statements,
      ...(r.reason === undefined ? {} : { reason: r.reason }),
    }));
  }

  /** Probes now (the timer does it every `every` ms); resolves when done. */
  async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      let primaryLsn: bigint;
      try {
        primaryLsn = await lsnOf(this.primary, 'pg_current_wal_lsn()');
      } catch {
        return; // no primary: nothing to measure against; the replicas keep their state
      }
      const now = Date.now();
      const last = this.samples.at(-1);
      if (!last || last.lsn !== primaryLsn) this.samples.push({ at: now, lsn: primaryLsn });
      await Promise.all(this.replicas.map((r) => this.probeReplica(r)));
      // A sample matters while some replica has not replayed past it: the first one a replica
      // lacks dates its lag. Older ones go, and a bounded number are kept for replicas that
      // never answer.
      const least = this.replicas.reduce((m, r) => (r.replayed < m ? r.replayed : m), primaryLsn);
      while (this.samples.length > 1 && (this.samples[1].lsn <= least || this.samples.length > MAX_SAMPLES))
        this.samples.shift();
    } finally {
      this.probing = false;
    }
  }

  private async probeReplica(replica: Replica): Promise<void> {
    let replayed: bigint;
    try {
      replayed = await lsnOf(
        replica.pool,
        'case when pg_is_in_recovery() then pg_last_wal_replay_lsn() else pg_current_wal_lsn() end',
      );
    } catch (error) {
      replica.lagMs = null;
      this.leaveOut(replica, `unreachable: ${(error as Error)?.message ?? String(error)}`);
      return;
    }
    replica.replayed = replayed;
    const missing = this.samples.find((s) => s.lsn > replayed);
    const lag = missing ? Date.now() - missing.at : 0;
    replica.lagMs = lag;
    if (lag > this.maxLagMs) return this.leaveOut(replica, `lagging ${lag} ms (REPLICA_MAX_LAG_MS ${this.maxLagMs})`);
    replica.up = true;
    replica.reason = undefined;
  }

  private leaveOut(replica: Replica, reason: string): void {
    replica.up = false;
    replica.reason = reason;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((r) => r.pool.end().catch(() => {})));
  }
}

async function lsnOf(pool: pg.Pool, expression: string): Promise<bigint> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  const query = pool.query<{ lsn: string | null }>(`select (${expression})::text as lsn`);
  query.catch(() => {}); // after a timeout, its late failure is nobody's
  try {
    const { rows } = await Promise.race([query, timeout]);
    return parseLsn(rows[0]?.lsn ?? '0/0');
  } finally {
    clearTimeout(timer);
  }
}

/** `16/B374D848` -> its position as one number. */
export function parseLsn(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** host:port/database, for /readyz and the metrics' labels; its position when two are alike. */
function nameOf(url: string, index: number, urls: readonly string[]): string {
  const name = (u: string) => {
    try {
      const parsed = new URL(u);
      return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
    } catch {
      return 'replica';
    }
  };
  const own = name(url);
  return urls.filter((u) => name(u) === own).length > 1 ? `${own}#${index + 1}` : own;
}
