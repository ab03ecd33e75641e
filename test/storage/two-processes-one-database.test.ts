import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importDocument } from '../../src/import/import.js';
import { MIXED_PROJECT, mixedCatalog } from '../support/mixed-catalog.js';
import { freshDatabase } from '../support/pg-database.js';
import { runCli, startServe } from '../support/processes.js';
import { PG_SKIP } from '../support/storage.js';
import { suite } from '../support/suite.js';

// Two `storefront serve` processes on one PostgreSQL database, as behind a load balancer:
// neither caches what the other could change, so a write through one is what the other
// answers on the very next request (same body, same ETag), and a key revoked with the CLI
// stops working on both at once.

suite('two API processes on one PostgreSQL database', { skip: PG_SKIP, timeout: 60_000 }, () => {
  test('writes, ETags and revocations are seen by both at once', async (t) => {
    const db = await freshDatabase(t, 'sf_two');
    const setup = connect(db.url);
    await migrateToLatest(setup.db);
    await importDocument(setup.db, mixedCatalog());
    await setup.close();
    const env = { DATABASE_URL: db.url };
    const created = await runCli(['key', 'create', MIXED_PROJECT, '--label', 'two'], env);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    const [a, b] = await Promise.all([startServe(t, env), startServe(t, env)]);
    assert.notEqual(a.url, b.url);

    const base = (s: { url: string }) => `${s.url}/v2/projects/${MIXED_PROJECT}`;
    const auth = { authorization: `Bearer ${key}` };
    const get = async (s: { url: string }, path: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base(s)}${path}`, { headers });
      return { status: res.status, etag: res.headers.get('etag'), body: await res.text() };
    };

    // The same data: the same answer and ETag from both.
    const before = await get(a, '/products/p-2');
    assert.equal(before.status, 200);
    assert.deepEqual(await get(b, '/products/p-2'), before);

    // Several rounds: each write through one process is read back through the other at once.
    for (let round = 1; round <= 5; round++) {
      const [writer, reader] = round % 2 ? [a, b] : [b, a];
      const update = await fetch(`${base(writer)}/products/p-2`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Renamed ${round}`, price: 100 + round }),
      });
      assert.equal(update.status, 200);
      const written = await update.text();
      const seen = await get(reader, '/products/p-2');
      assert.equal(seen.status, 200);
      assert.equal(seen.body, written, `round ${round}: the other process answers the written record`);
      assert.equal(seen.etag, update.headers.get('etag'), `round ${round}: with the same ETag`);
      // The ETag the other process handed out before the write no longer matches.
      assert.equal((await get(reader, '/products/p-2', { 'if-none-match': before.etag! })).status, 200);
      assert.equal((await get(writer, '/products/p-2', { 'if-none-match': seen.etag! })).status, 304);
      const list = await get(reader, '/products/?ids=2&order=name_asc');
      assert.match(list.body, new RegExp(`"name":"Renamed ${round}"`));
    }

    // A key works on both, then is revoked with the CLI: both refuse it on the next request.
    assert.equal((await get(a, '/products/?fetch_hidden=true', auth)).status, 200);
    assert.equal((await get(b, '/products/?fetch_hidden=true', auth)).status, 200);
    const listed = await runCli(['key', 'list', MIXED_PROJECT], env);
    const keyId = listed.stdout
      .split('\n')
      .find((l) => l.split('\t')[1] === 'two')!
      .split('\t')[0];
    const revoked = await runCli(['key', 'revoke', keyId], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    const [ra, rb] = await Promise.all([
      get(a, '/products/?fetch_hidden=true', auth),
      get(b, '/products/?fetch_hidden=true', auth),
    ]);
    assert.equal(ra.status, 401);
    assert.equal(rb.status, 401);
    assert.equal(ra.body, rb.body);
    assert.deepEqual([a.exits, b.exits], [[], []]);
  });
});
