import pg from 'pg';
import { connect } from '../src/db/connect.js';
import { serverBinaries, startStandbyPair, until } from '../test/support/pg-standby.js';
import { cases } from './cases.js';
import { type LoadResult, load } from './load.js';
import { readPools } from './pools.js';
import { UNCACHED_ENV, generateWithKey, serveApi } from './processes.js';
import type { Random } from './random.js';

// `npm run bench -- --replicas`: the read cases on a primary with one streaming standby
// (DATABASE_REPLICA_URLS) against the primary alone, in the same run, on a private pair
// (test/support/pg-standby.ts). Both servers run with the answer and count caches off, so that
// every request reads the database and the routing is what differs. Reported: req/s, p50 and
// p99 of each, and the standby's share of the read statements (from /metrics). On a machine of
// two cores the servers, the two PostgreSQL and the load share the same CPUs: the gain in
// req/s is bounded by them, the share and the added latency are what carries over.

const PROJECT = 'bench';

export interface ReplicaRow {
  query: string;
  primary: LoadResult;
  replica: LoadResult;
  /** the standby's part of the statements of the read handles during the replica run */
  standby_share: number;
}

export interface ReplicaBenchOptions {
  size: number;
  seconds: number;
  connections: number;
  random: Random;
  log: (line: string) => void;
}

export async function replicaBench(options: ReplicaBenchOptions): Promise<ReplicaRow[]> {
  const { size, seconds, connections, random, log } = options;
  const bin = serverBinaries();
  if (!bin) throw new Error('--replicas needs PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup): set PG_BIN');
  log(`replicas: a private primary and standby (${bin})…`);
  const pair = await startStandbyPair(bin);
  const stops: (() => Promise<void>)[] = [];
  try {
    const db = ['--database', pair.primaryUrl];
    log(`replicas: generating ${size} products…`);
    const key = await generateWithKey(PROJECT, pair.primaryUrl, {
      products: size,
      orders: Math.max(100, Math.round(size / 10)),
      users: Math.max(20, Math.round(size / 100)),
    });
    await caughtUp(pair.primaryUrl, pair.standbyUrl);
    const serve = async (extra: Record<string, string>) => {
      const server = await serveApi(db, { ...UNCACHED_ENV, ...extra });
      stops.push(server.stop);
      return server.url;
    };
    const alone = await serve({});
    const withStandby = await serve({ DATABASE_REPLICA_URLS: pair.standbyUrl });
    await until('the standby to be usable', async () =>
      /storefront_replica_up\{[^}]*\} 1/.test(await metrics(withStandby)),
    );
    const storage = connect(pair.primaryUrl);
    const pools = await readPools(storage, PROJECT, key).finally(() => storage.close());
    const rows: ReplicaRow[] = [];
    for (const c of cases(pools)) {
      const inputs = Array.from({ length: 50_000 }, () => c.draw(random));
      const run = (url: string) => {
        let i = 0;
        return load(`${url}/v2/projects/${PROJECT}`, {
          seconds,
          connections,
          expect: c.expect,
          next: () => inputs[i++ % inputs.length],
        });
      };
      const primary = await run(alone);
      const before = statements(await metrics(withStandby));
      const replica = await run(withStandby);
      const after = statements(await metrics(withStandby));
      const standby = after.standby - before.standby;
      const total = standby + after.primary - before.primary;
      const row = { query: c.name, primary, replica, standby_share: total === 0 ? 0 : standby / total };
      rows.push(row);
      log(
        `  ${c.name}: alone ${Math.round(primary.rps)} req/s p50 ${primary.p50} p99 ${primary.p99}; with the standby ${Math.round(replica.rps)} req/s p50 ${replica.p50} p99 ${replica.p99}, standby share ${Math.round(row.standby_share * 100)}%, unexpected ${primary.unexpected + replica.unexpected}`,
      );
    }
    return rows;
  } finally {
    for (const stop of stops) await stop();
    await pair.close();
  }
}

export function replicaTable(rows: ReplicaRow[]): string {
  const lines = [
    '| case | primary alone req/s | p50 ms | p99 ms | primary + standby req/s | p50 ms | p99 ms | standby share of read statements |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.query} | ${Math.round(r.primary.rps)} | ${r.primary.p50} | ${r.primary.p99} | ${Math.round(r.replica.rps)} | ${r.replica.p50} | ${r.replica.p99} | ${Math.round(r.standby_share * 100)}% |`,
    );
  return lines.join('\n');
}

async function metrics(url: string): Promise<string> {
  return (await fetch(`${url}/metrics`)).text();
}

/** storefront_read_statements_total: the primary's, and the standby's (every other source). */
function statements(text: string): { primary: number; standby: number } {
  const counts = { primary: 0, standby: 0 };
  for (const m of text.matchAll(/^storefront_read_statements_total\{source="([^"]+)"\} (\d+)/gm))
    counts[m[1] === 'primary' ? 'primary' : 'standby'] += Number(m[2]);
  return counts;
}

/** Waits until the standby has replayed all the primary wrote (the generated catalog). */
async function caughtUp(primaryUrl: string, standbyUrl: string): Promise<void> {
  const one = async (url: string, text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<{ v: boolean }>(text)).rows[0].v;
    } finally {
      await client.end();
    }
  };
  const primary = await one(primaryUrl, 'select pg_current_wal_lsn()::text as v');
  await until(
    'the standby to replay the catalog',
    () => one(standbyUrl, `select pg_last_wal_replay_lsn() >= '${String(primary)}'::pg_lsn as v`),
    120_000,
  );
}
