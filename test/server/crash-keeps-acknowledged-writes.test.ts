import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { sql } from 'kysely';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importDocument } from '../../src/import/import.js';
import { createKey } from '../../src/keys/repository.js';
import { eachBackend } from '../support/each-backend.js';
import { freshDatabase } from '../support/pg-database.js';
import { startServe } from '../support/processes.js';
import { shopDocument } from '../support/shop.js';

// Crash safety: a real server process takes a stream of product and order updates and is killed
// with SIGKILL mid-stream, several times. After each restart every update that was
// answered 2xx must be there. Each writer owns one product and sends increasing prices
// one at a time, so after a kill the stored price is the last acknowledged one, or the one
// in flight when the process died; never an older one.

const KILLS = Number(process.env.CRASH_KILLS ?? 3);
// Four products (one of them hidden) and two orders, each with its own writer.
const RECORDS = [
  ...[1, 2, 3, 4].map((id) => ({
    path: `products/${id}`,
    body: (n: number) => ({ price: n }),
    read: (r: Record<string, unknown>) => Number(r.price),
  })),
  ...[1, 2].map((id) => ({
    path: `orders/${id}`,
    body: (n: number) => ({ delivery_information: `v${n}` }),
    read: (r: Record<string, unknown>) => Number(String(r.delivery_information).slice(1)),
  })),
];

async function database(t: TestContext, backend: 'sqlite' | 'postgres'): Promise<string> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'sf-crash-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    return `sqlite:${join(dir, 'store.db')}`;
  }
  return (await freshDatabase(t, 'crash')).url;
}

eachBackend('crash safety', (backend) => {
  test(`SIGKILL mid-stream ${KILLS} times: every acknowledged update survives`, { timeout: 120_000 }, async (t) => {
    const url = await database(t, backend);
    const setup = connect(url);
    await migrateToLatest(setup.db);
    await importDocument(setup.db, shopDocument());
    const { key } = await createKey(setup, 'shop');
    await setup.close();

    const acked = new Map<number, number>(); // record -> last acknowledged value
    const sent = new Map<number, number>(); // record -> last value sent
    let acknowledged = 0;
    let next = 1;
    for (let round = 0; round < KILLS; round++) {
      const server = await startServe(t, { DATABASE_URL: url });
      const before = acknowledged;
      let stop = false;
      const writer = async (record: number) => {
        while (!stop) {
          const value = next++;
          sent.set(record, value);
          try {
            const res = await fetch(`${server.url}/v2/projects/shop/${RECORDS[record].path}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              body: JSON.stringify(RECORDS[record].body(value)),
            });
            if (res.status === 200) {
              acked.set(record, value);
              acknowledged++;
            } else if (!stop) assert.fail(`update answered ${res.status}: ${await res.text()}`);
          } catch {
            return; // the process is gone: this update was never acknowledged
          }
        }
      };
      const writers = RECORDS.map((_, i) => writer(i));
      // Kill once every writer has had a couple of updates acknowledged in this round (a count,
      // not a time window, so a loaded machine cannot make the round empty), then at a random moment.
      while (acknowledged - before < 2 * RECORDS.length) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, Math.random() * 300));
      server.child.kill('SIGKILL');
      await server.exited;
      stop = true;
      await Promise.all(writers);

      // Restart and read every product back through the API.
      const again = await startServe(t, { DATABASE_URL: url });
      for (const [record, { path, read }] of RECORDS.entries()) {
        const res = await fetch(
          `${again.url}/v2/projects/shop/${path}${path.startsWith('products') ? '?fetch_hidden=true' : ''}`,
          { headers: { authorization: `Bearer ${key}` } },
        );
        const stored = read((await res.json()) as Record<string, unknown>);
        const last = acked.get(record);
        if (last === undefined) continue;
        assert.ok(
          stored === last || stored === sent.get(record),
          `${path}: stored ${stored}, last acknowledged ${last}, last sent ${sent.get(record)}`,
        );
      }
      again.child.kill('SIGKILL');
      await again.exited;
    }
    assert.ok(acknowledged > KILLS * RECORDS.length, `only ${acknowledged} updates were acknowledged`);

    const check = connect(url);
    t.after(() => check.close());
    if (backend === 'sqlite') {
      const result = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(check.db);
      assert.deepEqual(result.rows, [{ integrity_check: 'ok' }]);
    }
    t.diagnostic(`crash [${backend}]: ${KILLS} kills survived, ${acknowledged} acknowledged updates, 0 lost`);
  });
});
