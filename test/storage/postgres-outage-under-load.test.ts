import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importDocument } from '../../src/import/import.js';
import { createKey } from '../../src/keys/repository.js';
import { MIXED_PROJECT, mixedCatalog } from '../support/mixed-catalog.js';
import { freshDatabase } from '../support/pg-database.js';
import { startServe } from '../support/processes.js';
import { PG_SKIP, PG_URL } from '../support/storage.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { suite } from '../support/suite.js';

// A real `storefront serve` process reaches PostgreSQL through a proxy that the test cuts
// while eight clients keep calling. The process must never exit, must answer every request
// (200, or 503 `unavailable` while the database is away, never a hang), and must recover
// by itself within 10 s of the database coming back.

interface Sample {
  start: number;
  end: number;
  status: number | 'network-error';
  code?: string;
}

const CLIENTS = 8;

async function load(url: string, key: string, until: () => boolean): Promise<Sample[]> {
  const samples: Sample[] = [];
  const base = `${url}/v2/projects/${MIXED_PROJECT}`;
  const calls = [
    () => fetch(`${base}/products/?order=name_asc,price_desc&perpage=10`),
    () => fetch(`${base}/products/?fetch_hidden=true&search=e`, { headers: { authorization: `Bearer ${key}` } }),
    () => fetch(`${base}/categories/`),
    () =>
      fetch(`${base}/products/p-2`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: '{"price":1234}',
      }),
  ];
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, worker) => {
      for (let i = worker; !until(); i++) {
        const start = performance.now();
        try {
          const res = await calls[i % calls.length]();
          const body = await res.text();
          samples.push({
            start,
            end: performance.now(),
            status: res.status,
            code: res.status === 200 ? undefined : JSON.parse(body).error?.code,
          });
        } catch {
          samples.push({ start, end: performance.now(), status: 'network-error' });
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    }),
  );
  return samples;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When answers became good for good: the start of the first request after which every request succeeded. */
function recoveredAt(samples: Sample[], after: number): number | undefined {
  const later = samples.filter((s) => s.start >= after).sort((a, b) => a.start - b.start);
  let lastBad = -1;
  later.forEach((s, i) => {
    if (s.status !== 200) lastBad = i;
  });
  return lastBad === later.length - 1 ? undefined : later[lastBad + 1].start;
}

suite('PostgreSQL outage under load, against a real server process', { skip: PG_SKIP, timeout: 120_000 }, () => {
  test('503 only while the database is away, no exit, recovery within 10 s', async (t) => {
    const db = await freshDatabase(t, 'sf_outage');
    const setup = connect(db.url);
    await migrateToLatest(setup.db);
    await importDocument(setup.db, mixedCatalog());
    const { key } = await createKey(setup, MIXED_PROJECT, 'load');
    await setup.close();

    const proxy = new TcpProxy(Number(new URL(PG_URL!).port || 5432));
    t.after(() => proxy.stop());
    await proxy.start();
    const server = await startServe(t, { DATABASE_URL: db.urlVia(proxy.port), DATABASE_POOL_SIZE: '4' });

    const t0 = performance.now();
    let done = false;
    const running = load(server.url, key, () => done);
    const marks: Record<string, number> = {};
    await sleep(2000);
    marks.cut = performance.now();
    await proxy.stop(); // the database is gone: connections reset, new ones refused
    await sleep(4000);
    marks.restored = performance.now();
    await proxy.start();
    await sleep(4000);
    marks.frozen = performance.now();
    proxy.freeze(); // a partition: nothing answers and nothing is reset
    await sleep(12_000);
    marks.thawed = performance.now();
    await proxy.stop();
    await proxy.start();
    await sleep(6000);
    done = true;
    const samples = await running;

    const ms = (n: number) => `${Math.round(n)} ms`;
    const in503 = samples.filter((s) => s.status === 503);
    const tally = new Map<string, number>();
    for (const s of samples) tally.set(String(s.status), (tally.get(String(s.status)) ?? 0) + 1);
    const counts = [...tally].map(([k, v]) => `${k}: ${v}`);
    t.diagnostic(`${samples.length} requests (${counts.join(', ')}), through ${proxy.accepted} proxied connections`);

    assert.deepEqual(server.exits, [], `the server exited:\n${server.output()}`);
    assert.equal(server.child.exitCode, null);
    const odd = samples.filter((s) => s.status !== 200 && s.status !== 503);
    assert.deepEqual(odd, [], `answers other than 200 and 503:\n${server.output()}`);
    assert.ok(
      in503.every((s) => s.code === 'unavailable'),
      'every 503 is `unavailable`',
    );

    // Before the cut: all good. After the cut: 503s, then good again.
    assert.ok(
      samples.filter((s) => s.end < marks.cut).every((s) => s.status === 200),
      'all 200 before the outage',
    );
    const refused = in503.filter((s) => s.end >= marks.cut && s.start < marks.restored + 10_000);
    assert.ok(refused.length > 0, 'the outage was seen');
    assert.ok(
      in503.every((s) => (s.end >= marks.cut && s.start < marks.frozen) || s.end >= marks.frozen),
      '503s only during the outages',
    );
    const outageMax = Math.max(
      ...samples.filter((s) => s.end >= marks.cut && s.start < marks.restored).map((s) => s.end - s.start),
    );

    const back = recoveredAt(
      samples.filter((s) => s.end < marks.frozen),
      marks.restored,
    );
    assert.ok(back !== undefined, 'recovered after the database came back');
    const recovery = back - marks.restored;
    assert.ok(recovery <= 10_000, `recovered in ${ms(recovery)}`);

    // The partition: every request still ends, by the pool's connect (3 s) or query (7 s)
    // timeout; those in flight when it began included. Worst case: 3 s waiting for a
    // connection of the full pool, then 7 s (the 5 s statement timeout + 2 s) for a query that never returns.
    const partitioned = samples.filter((s) => s.end >= marks.frozen && s.start < marks.thawed);
    const partitionMax = Math.max(...partitioned.map((s) => s.end - s.start));
    assert.ok(
      partitioned.some((s) => s.status === 503),
      'the partition was seen',
    );
    assert.ok(partitionMax < 14_000, `slowest answer in the partition: ${ms(partitionMax)}`);
    const back2 = recoveredAt(samples, marks.thawed);
    assert.ok(back2 !== undefined && back2 - marks.thawed <= 10_000, 'recovered after the partition');

    t.diagnostic(
      `outage 4 s: ${refused.length} answers 503, slowest ${ms(outageMax)}, recovered ${ms(recovery)} after the database came back; ` +
        `partition 12 s: ${partitioned.filter((s) => s.status === 503).length} answers 503, slowest ${ms(partitionMax)}, recovered ${ms(back2 - marks.thawed)} after; ` +
        `process exits: ${server.exits.length}; run ${ms(performance.now() - t0)}`,
    );
  });
});
