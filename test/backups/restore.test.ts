import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { connect } from '../../src/db/connect.js';
import { BackupError, backupDatabase, restoreBackup } from '../../src/db/backups.js';
import { eachBackend } from '../support/each-backend.js';
import { testApp } from '../support/app.js';
import { bearer, call } from '../support/request.js';
import { backupPlace, seedShopWithHook } from './databases.js';

// After a restore, everything a shop's clients hold works as before the backup: its keys, its
// webhook endpoints and their pending deliveries, and its change-feed cursors; a cursor the
// lost database gave out after the backup is 410, even once the restored one has moved on.

eachBackend('restore', (backend) => {
  test('keys, webhooks, pending deliveries and cursors work; a later cursor is 410', async (t) => {
    const place = await backupPlace(t, backend);
    const source = await place.database('source');
    const { key } = await seedShopWithHook(source);
    const before = connect(source);
    t.after(() => before.close());
    const old = await testApp(t, backend, { storage: before });
    const shop = (method: 'GET' | 'POST', path: string, app = old.app, body?: unknown) =>
      call(app, method, `/v2/projects/shop${path}`, { headers: bearer(key), body });
    const atStart = (await shop('GET', '/changes/')).body.next;
    assert.equal((await shop('POST', '/products/1', old.app, { price: 111 })).status, 200);
    const file = join(place.dir, 'shop.backup');
    await backupDatabase(source, file);
    assert.equal((await shop('POST', '/products/2', old.app, { price: 222 })).status, 200);
    const lost = (await shop('GET', `/changes/?since=${atStart}`)).body.next;

    const target = await place.database('target');
    await restoreBackup(file, target, false);
    await assert.rejects(restoreBackup(file, target, false), (e: Error) => {
      assert.ok(e instanceof BackupError);
      assert.match(e.message, /is not empty \(1 project\).*--force/);
      return true;
    });
    await restoreBackup(file, target, true);

    const after = connect(target);
    t.after(() => after.close());
    const { app } = await testApp(t, backend, { storage: after });
    assert.equal((await shop('GET', '/orders/', app)).status, 200, 'the key works');
    const hooks = (await shop('GET', '/webhooks/', app)).body.data;
    assert.deepEqual(
      hooks.map((h: { url: string }) => h.url),
      ['http://127.0.0.1:9/hook'],
    );
    const pending = await after.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    assert.equal(Number(pending.n), 1, "the backup's pending delivery is pending again");
    assert.equal((await shop('GET', '/products/2', app)).body.price === 222, false, 'the later write is not in it');

    const resumed = await shop('GET', `/changes/?since=${atStart}`, app);
    assert.equal(resumed.status, 200);
    assert.deepEqual(
      resumed.body.data.map((e: { id: number; record: { price: number } }) => [e.id, e.record.price]),
      [[1, 111]],
    );
    assert.equal((await shop('GET', `/changes/?since=${lost}`, app)).status, 410);
    assert.equal((await shop('POST', '/products/3', app, { price: 333 })).status, 200);
    const gone = await shop('GET', `/changes/?since=${lost}`, app);
    assert.equal(gone.status, 410, 'still 410 once the restored database has written more');
    assert.match(gone.body.error.message, /newer than the backup/);
    const next = await shop('GET', `/changes/?since=${resumed.body.next}`, app);
    assert.deepEqual(
      next.body.data.map((e: { id: number }) => e.id),
      [3],
    );
  });
});
