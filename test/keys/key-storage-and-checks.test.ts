import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { createKey, listKeys, revokeKey } from '../../src/keys/repository.js';
import { generateKey, hashKey } from '../../src/keys/token.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { twoStorages } from '../support/shared-storage.js';
import { withPlugin } from '../support/storage.js';
import { seedShop } from '../support/shop.js';

// How keys are kept and checked (docs/API.md, "Keys and authentication"): only a hash is stored; a bad key
// of any kind is 401, a malformed one before any database work; revocation is immediate,
// in every process.

/** Counts the statements sent to the database, by kind (SelectQueryNode, UpdateQueryNode …). */
function counter() {
  const counts = new Map<string, number>();
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      counts.set(args.node.kind, (counts.get(args.node.kind) ?? 0) + 1);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { plugin, counts, total: () => [...counts.values()].reduce((a, b) => a + b, 0) };
}

eachBackend('API keys', (backend) => {
  test('only a hash is stored; list shows no secret; revocation works at once', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await seedShop(storage);
    const { id, key } = await createKey(storage, 'shop', 'ci');
    const row = await storage.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.hash, hashKey(key));
    assert.equal(row.hash, createHash('sha256').update(key).digest('hex'));
    assert.equal(
      await storage.db
        .selectFrom('api_keys')
        .select('id')
        .execute()
        .then((r) => r.length),
      1,
    );
    assert.ok(!JSON.stringify(row).includes(key.slice(4, 20)), 'no part of the key is stored');
    const url = '/v2/projects/shop/products/?fetch_hidden=true';
    assert.equal((await call(app, 'GET', url, { headers: bearer(key) })).status, 200);
    const listed = await listKeys(storage, 'shop');
    assert.deepEqual(
      listed.map((k) => [k.id, k.label]),
      [[id, 'ci']],
    );
    assert.ok(listed[0].last_used_at! >= row.created_at); // written on first use
    assert.equal(await revokeKey(storage, id), true);
    assert.equal((await call(app, 'GET', url, { headers: bearer(key) })).status, 401);
    assert.equal(await revokeKey(storage, id), false);
    assert.deepEqual(await listKeys(storage, 'shop'), []);
  });

  test('every kind of bad key is 401 with WWW-Authenticate', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await seedShop(storage);
    const other = (await createKey(storage, 'other')).key;
    const good = (await createKey(storage, 'shop')).key;
    const wrongCheck = good.slice(0, -1) + (good.endsWith('a') ? 'b' : 'a');
    const headers: Record<string, string>[] = [
      {},
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: `Token ${good}` },
      bearer(wrongCheck),
      bearer(generateKey()),
      bearer(other),
      bearer(`${good} extra`),
      { authorization: good },
    ];
    for (const h of headers) {
      const r = await call(app, 'GET', '/v2/projects/shop/products/?fetch_hidden=true', { headers: h });
      assert.equal(r.status, 401, JSON.stringify(h));
      assert.equal(r.headers['www-authenticate'], 'Bearer');
      assert.equal(r.body.error.code, 'unauthorized');
    }
    assert.equal(
      (
        await call(app, 'GET', '/v2/projects/shop/products/?fetch_hidden=true', {
          headers: { authorization: `bearer  ${good}` },
        })
      ).status,
      200,
    );
  });

  test('a malformed or mistyped key is refused with 401 before any database query', async (t) => {
    const { storage, key } = await testApp(t, backend);
    await seedShop(storage);
    const good = await key('shop');
    const typo = good.slice(0, 10) + (good[10] === 'a' ? 'b' : 'a') + good.slice(11);
    const count = counter();
    const { app } = await testApp(t, backend, {
      storage: withPlugin(storage, count.plugin),
    });
    for (const header of [`Bearer ${typo}`, 'Bearer sfk_short', 'Bearer not-a-key', `Bearer ${good}x`]) {
      const res = await app.inject({
        url: '/v2/projects/shop/products/?fetch_hidden=true',
        headers: { authorization: header },
      });
      assert.equal(res.statusCode, 401, header);
      assert.equal(res.json().error.code, 'unauthorized');
      assert.equal(res.headers['www-authenticate'], 'Bearer');
    }
    assert.equal(count.total(), 0, 'no query for a malformed key');
    // The well-formed key does reach the database, which shows the counter works.
    const ok = await app.inject({
      url: '/v2/projects/shop/products/?fetch_hidden=true',
      headers: { authorization: `Bearer ${good}` },
    });
    assert.equal(ok.statusCode, 200);
    assert.ok(count.total() > 0);
  });

  test("another project's key, an unknown key and a revoked key are all 401", async (t) => {
    const { app, storage } = await testApp(t, backend);
    await seedShop(storage);
    const otherKey = (await createKey(storage, 'other')).key;
    const unknown = generateKey();
    for (const key of [otherKey, unknown]) {
      const res = await app.inject({
        url: '/v2/projects/shop/products/3?fetch_hidden=true',
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(res.statusCode, 401);
      assert.ok(!res.body.includes('Hidden gem'));
    }
  });
});

test('revocation takes effect at once in another process (two connections to one file)', async (t) => {
  const { a: first, b: second, close } = await twoStorages('sqlite');
  t.after(close);
  await seedShop(first);
  const a = (await testApp(t, 'sqlite', { storage: first })).app;
  const b = (await testApp(t, 'sqlite', { storage: second })).app;
  const { id, key } = await createKey(first, 'shop');
  const ask = (app: typeof a) =>
    app.inject({ url: '/v2/projects/shop/products/3?fetch_hidden=true', headers: { authorization: `Bearer ${key}` } });
  assert.equal((await ask(b)).statusCode, 200);
  assert.equal(await revokeKey(first, id), true);
  assert.equal((await ask(b)).statusCode, 401);
  assert.equal((await ask(a)).statusCode, 401);
});
