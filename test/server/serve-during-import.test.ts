import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importDocument } from '../../src/import/import.js';
import { createKey } from '../../src/keys/repository.js';
import { startServe } from '../support/processes.js';
import { shopDocument } from '../support/shop.js';

// A CLI import holds the SQLite file's write lock for its whole transaction. A server on the
// same file answers meanwhile: public reads, single products and keyed requests, none of them
// a 503 (the issue: a keyed request waited for the import's lock and failed after 5 s, and
// every other request stalled with it). The server runs its queries in worker threads
// (SQLITE_READERS, default 2): reads on read-only connections beside the import, and the
// key's last_used_at write waiting on the writer thread, never on the event loop.

const BIN = new URL('../../../bin/storefront.js', import.meta.url).pathname;
const PRODUCTS = 30_000;

test('a server on the file answers every request while a CLI import of many records runs', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sf-serve-import-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'shop.db');
  const url = `sqlite:${path}`;
  const setup = connect(url);
  await migrateToLatest(setup.db);
  await importDocument(setup.db, shopDocument());
  const { key } = await createKey(setup, 'shop');
  await setup.close();

  const file = join(dir, 'many.ndjson');
  const lines = [JSON.stringify({ type: 'project', id: 'shop', name: 'Shop', currency: 'USD' })];
  for (let i = 1; i <= PRODUCTS; i++)
    lines.push(JSON.stringify({ type: 'product', id: 1000 + i, handle: `bulk-${i}`, name: `Bulk ${i}`, price: i }));
  writeFileSync(file, lines.join('\n'));

  const server = await startServe(t, { DATABASE_URL: url });
  const base = `${server.url}/v2/projects/shop`;
  const before = (await (await fetch(`${base}/products/?perpage=1`)).json()) as { meta: { total: number } };

  // Whether another connection holds the write lock right now (the import's transaction).
  const probe = new SQLite(path);
  t.after(() => probe.close());
  probe.pragma('busy_timeout = 0');
  const importHoldsLock = () => {
    try {
      probe.exec('begin immediate');
      probe.exec('rollback');
      return false;
    } catch (e) {
      if ((e as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
      throw e;
    }
  };

  const child = spawn(process.execPath, [BIN, 'import', file, '--database', url], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = once(child, 'exit');
  let running = true;
  void exited.then(() => (running = false));

  const answers: string[] = [];
  let duringLock = 0;
  for (let round = 0; running; round++) {
    const locked = importHoldsLock();
    const results = await Promise.all([
      fetch(`${server.url}/healthz`),
      fetch(`${base}/products/?page=${(round % 3) + 1}&perpage=2&order=name_asc`),
      fetch(`${base}/products/${(round % 2) + 1}`),
      fetch(`${base}/products/?fetch_hidden=true&perpage=3&page=${(round % 2) + 1}`, {
        headers: { authorization: `Bearer ${key}` },
      }),
      fetch(`${base}/orders/?perpage=1`, { headers: { authorization: `Bearer ${key}` } }),
    ]);
    for (const r of results) answers.push(`${new URL(r.url).pathname} ${r.status}`);
    await Promise.all(results.map((r) => r.arrayBuffer()));
    // Counted only when the lock was held before the round's requests and after their answers.
    if (locked && importHoldsLock()) duringLock++;
  }
  const [code] = (await exited) as [number | null];
  assert.equal(code, 0, output);
  assert.ok(duringLock > 0, 'some requests were answered while the import held the write lock');
  assert.deepEqual(
    answers.filter((a) => !a.endsWith(' 200')),
    [],
    'every request answered 200',
  );
  // And the import is seen by the next request once it has committed.
  const after = (await (await fetch(`${base}/products/?perpage=1`)).json()) as { meta: { total: number } };
  assert.equal(after.meta.total, before.meta.total + PRODUCTS);
});
