import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKey, listKeys, revokeKey } from '../../src/keys/repository.js';
import { generateKey, hashKey, isWellFormedKey } from '../../src/keys/token.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { seedShop } from '../support/shop.js';
import { bearer, call } from '../support/request.js';

test('keys: a prefix, at least 128 random bits, and a checksum that catches typos', () => {
  const keys = new Set(Array.from({ length: 200 }, generateKey));
  assert.equal(keys.size, 200);
  for (const key of keys) {
    assert.match(key, /^sfk_[0-9A-Za-z]{38}$/);
    assert.ok(isWellFormedKey(key));
    // 32 base62 characters carry log2(62^32) ≈ 190 bits
    const i = 4 + (key.charCodeAt(10) % 38);
    const typo = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    assert.equal(isWellFormedKey(typo), false);
  }
  for (const bad of ['', 'sfk_', 'sk_live_abc', `SFK_${'a'.repeat(38)}`, `sfk_${'a'.repeat(37)}`])
    assert.equal(isWellFormedKey(bad), false);
});

eachBackend('API keys', (backend) => {
  test('only a hash is stored; list shows no secret; revocation works at once', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await seedShop(storage);
    const { id, key } = await createKey(storage.db, 'shop', 'ci');
    const row = await storage.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.hash, hashKey(key));
    assert.ok(!JSON.stringify(row).includes(key.slice(4)));
    const url = '/v2/projects/shop/products/?fetch_hidden=true';
    assert.equal((await call(app, 'GET', url, { headers: bearer(key) })).status, 200);
    const listed = await listKeys(storage.db, 'shop');
    assert.deepEqual(
      listed.map((k) => [k.id, k.label]),
      [[id, 'ci']],
    );
    assert.ok(listed[0].last_used_at! >= row.created_at); // written on first use
    assert.equal(await revokeKey(storage.db, id), true);
    assert.equal((await call(app, 'GET', url, { headers: bearer(key) })).status, 401);
    assert.equal(await revokeKey(storage.db, id), false);
    assert.deepEqual(await listKeys(storage.db, 'shop'), []);
  });

  test('every kind of bad key is 401 with WWW-Authenticate', async (t) => {
    const { app, storage } = await testApp(t, backend);
    await seedShop(storage);
    const other = (await createKey(storage.db, 'other')).key;
    const good = (await createKey(storage.db, 'shop')).key;
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
});
