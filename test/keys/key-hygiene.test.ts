import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { buildApp } from '../../src/app.js';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { checkKey, createKey, revokeKey } from '../../src/keys/repository.js';
import { generateKey, isWellFormedKey, sameHash } from '../../src/keys/token.js';
import { eachBackend } from '../support/each-backend.js';
import { testApp } from '../support/app.js';
import { seedShop } from '../support/shop.js';

// Key hygiene (CONTRACT 7): recognisable, random, checksummed keys; only a hash stored;
// malformed keys refused before any database work; revocation immediate everywhere.

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

test('keys: sfk_ prefix, 32 random base62 characters and a 6-character checksum', () => {
  const keys = new Set(Array.from({ length: 1000 }, generateKey));
  assert.equal(keys.size, 1000);
  for (const key of keys) {
    assert.match(key, /^sfk_[0-9A-Za-z]{38}$/);
    assert.ok(isWellFormedKey(key));
  }
  // Every position of the random part takes many values: no fixed or biased characters.
  const sample = [...keys];
  for (let i = 4; i < 36; i++) assert.ok(new Set(sample.map((k) => k[i])).size > 40, `position ${i} varies`);
});

test('keys: one mistyped character or a swapped pair fails the checksum', () => {
  const key = generateKey();
  let refused = 0;
  for (let i = 4; i < key.length; i++) {
    const c = key[i] === 'a' ? 'b' : 'a';
    const typo = key.slice(0, i) + c + key.slice(i + 1);
    if (!isWellFormedKey(typo)) refused++;
  }
  assert.equal(refused, key.length - 4);
  for (const bad of [
    '',
    'sfk_',
    key.slice(0, -1),
    `${key}x`,
    key.toUpperCase(),
    key.replace('sfk_', 'sfx_'),
    ` ${key}`,
  ]) {
    assert.equal(isWellFormedKey(bad), false, bad);
  }
});

test('keys: hashes are compared in constant time and by value', () => {
  const a = createHash('sha256').update('a').digest('hex');
  const b = createHash('sha256').update('b').digest('hex');
  assert.equal(sameHash(a, a), true);
  assert.equal(sameHash(a, b), false);
  assert.equal(sameHash(a, a.slice(0, 10)), false);
});

eachBackend('keys', (backend) => {
  test('only the SHA-256 of a key is stored, never the key', async (t) => {
    const { storage } = await testApp(t, backend);
    await seedShop(storage);
    const { key } = await createKey(storage.db, 'shop', 'ci');
    const rows = await storage.db.selectFrom('api_keys').selectAll().execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0].hash, createHash('sha256').update(key).digest('hex'));
    assert.ok(!JSON.stringify(rows).includes(key.slice(4, 20)));
  });

  test('a malformed or mistyped key is refused with 401 before any database query', async (t) => {
    const { storage, key } = await testApp(t, backend);
    await seedShop(storage);
    const good = await key('shop');
    const typo = good.slice(0, 10) + (good[10] === 'a' ? 'b' : 'a') + good.slice(11);
    const count = counter();
    const app = await buildApp({ storage: { ...storage, db: storage.db.withPlugin(count.plugin) } });
    t.after(() => app.close());
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

  test('last_used_at is written once, not on every request within a minute', async (t) => {
    const { storage } = await testApp(t, backend);
    await seedShop(storage);
    const { key } = await createKey(storage.db, 'shop');
    const count = counter();
    const db = storage.db.withPlugin(count.plugin);
    for (let i = 0; i < 5; i++) assert.equal((await checkKey(db, 'shop', key)).ok, true);
    assert.equal(count.counts.get('UpdateQueryNode'), 1);
    assert.equal(count.counts.get('SelectQueryNode'), 5, 'every request still checks the database');
    const row = await storage.db.selectFrom('api_keys').select('last_used_at').executeTakeFirstOrThrow();
    assert.ok(Math.abs(Number(row.last_used_at) - Date.now() / 1000) < 5);
  });

  test("another project's key, an unknown key and a revoked key are all 401", async (t) => {
    const { app, storage } = await testApp(t, backend);
    await seedShop(storage);
    const otherKey = (await createKey(storage.db, 'other')).key;
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
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'sf-keys-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const url = `sqlite:${join(dir, 'db.sqlite')}`;
  const first = connect(url);
  await migrateToLatest(first.db);
  await seedShop(first);
  const second = connect(url);
  const a = await buildApp({ storage: first });
  const b = await buildApp({ storage: second });
  t.after(async () => {
    await a.close();
    await b.close();
    await first.close();
    await second.close();
  });
  const { id, key } = await createKey(first.db, 'shop');
  const ask = (app: typeof a) =>
    app.inject({ url: '/v2/projects/shop/products/3?fetch_hidden=true', headers: { authorization: `Bearer ${key}` } });
  assert.equal((await ask(b)).statusCode, 200);
  assert.equal(await revokeKey(first.db, id), true);
  assert.equal((await ask(b)).statusCode, 401);
  assert.equal((await ask(a)).statusCode, 401);
});
