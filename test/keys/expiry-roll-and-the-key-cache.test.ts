import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { createKey, listKeys, revokeKey, rollKey } from '../../src/keys/repository.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { twoStorages } from '../support/shared-storage.js';
import { withPlugin } from '../support/storage.js';
import { SHOP, seedShop } from '../support/shop.js';

// Expiry and the overlap of a roll, against a clock the test moves (the app's `now`); the
// key check answered from memory, yet every change to a project's keys seen on the very
// next request, in this process and in another one; last_used_at off the request's path.

const T0 = 1_900_000_000;
const HIDDEN = `/v2/projects/${SHOP}/products/?fetch_hidden=true`;

/** Counts the statements that read or write api_keys. */
function keyQueries() {
  let reads = 0;
  let writes = 0;
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      const text = JSON.stringify(args.node);
      if (text.includes('"api_keys"')) {
        if (args.node.kind === 'SelectQueryNode') reads++;
        if (args.node.kind === 'UpdateQueryNode') writes++;
      }
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { plugin, reads: () => reads, writes: () => writes };
}

eachBackend('key expiry, roll and the key cache', (backend) => {
  test('a key expires at the second it names; the clock is read on every request', async (t) => {
    const clock = { t: T0 };
    const { app, storage } = await testApp(t, backend, { now: () => clock.t });
    await seedShop(storage);
    const { key } = await createKey(storage, SHOP, 'ci', { expiresIn: 90 * 86_400, now: T0 });
    assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(key) })).status, 200);
    clock.t = T0 + 90 * 86_400 - 1;
    assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(key) })).status, 200);
    clock.t = T0 + 90 * 86_400;
    const expired = await call(app, 'GET', HIDDEN, { headers: bearer(key) });
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error.code, 'unauthorized');
    assert.deepEqual(await listKeys(storage, SHOP, clock.t), [], 'an expired key is no longer listed');
  });

  test('a roll: the new key has the label, scopes and lifetime; the old one works until the overlap ends', async (t) => {
    const clock = { t: T0 };
    const { app, storage } = await testApp(t, backend, { now: () => clock.t });
    await seedShop(storage);
    const old = await createKey(storage, SHOP, 'static build', {
      scopes: ['products:read_hidden'],
      expiresIn: 30 * 86_400,
      now: T0,
    });
    assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(old.key) })).status, 200);
    clock.t = T0 + 1000;
    const rolled = await rollKey(storage, { keyId: old.id, overlap: 24 * 3600, now: clock.t });
    assert.ok(rolled);
    assert.deepEqual(
      [rolled.info.label, rolled.info.scopes, rolled.info.expires_at],
      ['static build', ['products:read_hidden'], clock.t + 30 * 86_400],
    );
    assert.equal(rolled.previous.expires_at, clock.t + 24 * 3600);
    for (const key of [old.key, rolled.key])
      assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(key) })).status, 200, 'both work in the overlap');
    assert.equal((await call(app, 'GET', `/v2/projects/${SHOP}/orders/`, { headers: bearer(rolled.key) })).status, 403);
    clock.t = T0 + 1000 + 24 * 3600;
    assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(old.key) })).status, 401, 'the overlap is over');
    assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(rolled.key) })).status, 200);
    assert.equal(
      await rollKey(storage, { keyId: old.id, overlap: 0, now: clock.t }),
      undefined,
      'an expired key does not roll',
    );
    // An overlap never outlives the old key's own expiry; 0 stops it at once.
    const again = await rollKey(storage, { keyId: rolled.info.id, overlap: 0, now: clock.t });
    assert.equal(again?.previous.expires_at, clock.t);
    assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(rolled.key) })).status, 401);
  });

  test('checks are answered from memory until a key of the project changes', async (t) => {
    const { storage } = await testApp(t, backend);
    await seedShop(storage);
    const count = keyQueries();
    const { app } = await testApp(t, backend, {
      storage: withPlugin(storage, count.plugin),
    });
    const { key } = await createKey(storage, SHOP, 'busy');
    for (let i = 0; i < 5; i++) assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(key) })).status, 200);
    assert.equal(count.reads(), 1, 'one read of the key for five requests');
    // A change to another key of the project bumps keys_version: the next check reads again.
    await createKey(storage, SHOP, 'another');
    assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(key) })).status, 200);
    assert.equal(count.reads(), 2);
    // A key of another project changes nothing here.
    await createKey(storage, 'other', 'elsewhere');
    assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(key) })).status, 200);
    assert.equal(count.reads(), 2);
  });

  test('last_used_at is written after the answer, at most once a minute per key', async (t) => {
    const clock = { t: T0 };
    const { storage } = await testApp(t, backend);
    await seedShop(storage);
    const count = keyQueries();
    const { app } = await testApp(t, backend, {
      storage: withPlugin(storage, count.plugin),
      now: () => clock.t,
    });
    const { id, key } = await createKey(storage, SHOP, 'ci', { now: T0 - 10 });
    const lastUsed = async () =>
      (await storage.db.selectFrom('api_keys').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow())
        .last_used_at;
    for (let i = 0; i < 5; i++) await call(app, 'GET', HIDDEN, { headers: bearer(key) });
    await app.keys.settled();
    assert.equal(count.writes(), 1);
    assert.equal(await lastUsed(), T0);
    clock.t = T0 + 59;
    await call(app, 'GET', HIDDEN, { headers: bearer(key) });
    await app.keys.settled();
    assert.equal(count.writes(), 1, 'not again within the minute');
    clock.t = T0 + 60;
    await call(app, 'GET', HIDDEN, { headers: bearer(key) });
    await app.keys.settled();
    assert.equal(count.writes(), 2);
    assert.equal(await lastUsed(), T0 + 60);
    assert.equal(count.reads(), 1, 'writing last_used_at does not make the cache read the key again');
  });

  test('revocation and a roll are seen on the very next request by another process', async (t) => {
    const { a: first, b: second, close } = await twoStorages(backend);
    t.after(close);
    await seedShop(first);
    const a = (await testApp(t, backend, { storage: first })).app;
    const b = (await testApp(t, backend, { storage: second })).app;
    const one = await createKey(first, SHOP);
    const two = await createKey(first, SHOP);
    for (const app of [a, b])
      for (const k of [one, two])
        assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(k.key) })).status, 200);
    // Both processes now hold both keys in memory; the change happens through the first only.
    assert.equal(await revokeKey(first, one.id), true);
    assert.equal((await call(b, 'GET', HIDDEN, { headers: bearer(one.key) })).status, 401);
    assert.equal((await call(a, 'GET', HIDDEN, { headers: bearer(one.key) })).status, 401);
    await rollKey(second, { keyId: two.id, overlap: 0 });
    assert.equal((await call(a, 'GET', HIDDEN, { headers: bearer(two.key) })).status, 401);
  });
});

test('SQLite: last_used_at never waits for another connection’s write lock; the next use writes it', async (t) => {
  // better-sqlite3 waits for a lock on the event loop's thread: a write waiting for an
  // import's lock would stall every request of the process for up to busy_timeout (5 s).
  const { a, b, close } = await twoStorages('sqlite');
  t.after(close);
  await seedShop(a);
  const { app } = await testApp(t, 'sqlite', { storage: a, now: () => T0 });
  const { id, key } = await createKey(a, SHOP, 'ci', { now: T0 - 10 });
  const lastUsed = async () =>
    (await a.db.selectFrom('api_keys').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow())
      .last_used_at;
  b.sqlite!.exec('begin immediate'); // another process's import holds the write lock
  assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(key) })).status, 200);
  await app.keys.settled();
  assert.equal(a.sqlite!.pragma('busy_timeout', { simple: true }), 5000, 'the connection keeps its busy_timeout');
  b.sqlite!.exec('commit');
  assert.equal(await lastUsed(), null, 'skipped while the lock was held');
  assert.equal((await call(app, 'GET', HIDDEN, { headers: bearer(key) })).status, 200);
  await app.keys.settled();
  assert.equal(await lastUsed(), T0, 'written by the next use, within the same minute');
});
