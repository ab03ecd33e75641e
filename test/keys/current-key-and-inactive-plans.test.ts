import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKey, revokeKey } from '../../src/keys/repository.js';
import { generateKey } from '../../src/keys/token.js';
import { suiteApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { OTHER, SHOP, seedShop } from '../support/shop.js';

// What a client reads before it shows anything (CONTRACT 4 and 12): the calling key itself,
// so that a console can show what the key may not do, and the plans of every status.

eachBackend('the calling key and plans of every status', (backend) => {
  const shop = suiteApp(backend, async ({ storage }) => seedShop(storage));

  test('any valid key reads its own id, label, scopes and times, never a secret', async () => {
    const made = await createKey(shop.storage, SHOP, 'read only', { scopes: ['orders:read'], expiresIn: 3600 });
    const r = await call(shop.app, 'GET', `/v2/projects/${SHOP}/keys/current`, { headers: bearer(made.key) });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      id: made.id,
      label: 'read only',
      scopes: ['orders:read'],
      created_at: made.info.created_at,
      expires_at: made.info.created_at + 3600,
    });
    assert.equal(r.headers['cache-control'], 'private, no-store');
    assert.ok(!r.text.includes(made.key), 'the secret is not in the answer');
    // With a trailing slash too, like every path.
    const slash = await call(shop.app, 'GET', `/v2/projects/${SHOP}/keys/current/`, { headers: bearer(made.key) });
    assert.equal(slash.status, 200);
  });

  test('keys/current: no key, a revoked one or another project’s is 401; an unknown parameter 400', async () => {
    const path = `/v2/projects/${SHOP}/keys/current`;
    assert.equal((await call(shop.app, 'GET', path)).status, 401);
    const gone = await createKey(shop.storage, SHOP, 'gone');
    await revokeKey(shop.storage, gone.id);
    assert.equal((await call(shop.app, 'GET', path, { headers: bearer(gone.key) })).status, 401);
    const foreign = await shop.key(OTHER);
    assert.equal((await call(shop.app, 'GET', path, { headers: bearer(foreign) })).status, 401);
    const key = await shop.key(SHOP, { scopes: ['users:read'] });
    assert.equal((await call(shop.app, 'GET', `${path}?x=1`, { headers: bearer(key) })).status, 400);
  });

  test('a good key on a mistyped project id says whose it is; a bad key says only that it is not valid', async () => {
    const key = await shop.key(SHOP, { scopes: ['orders:read'] });
    const message = async (project: string, k: string) => {
      const r = await call(shop.app, 'GET', `/v2/projects/${project}/keys/current`, { headers: bearer(k) });
      assert.equal(r.status, 401, r.text);
      assert.equal(r.headers['www-authenticate'], 'Bearer');
      return r.body.error.message as string;
    };
    const mine = `this API key belongs to project "${SHOP}", not "${OTHER}"`;
    // Another project that exists, and one that does not: the same words, so nothing tells them apart.
    assert.equal(await message(OTHER, key), mine);
    assert.equal(await message('no-such-shop', key), mine.replace(`"${OTHER}"`, '"no-such-shop"'));
    // Well-formed but no key of any project, and malformed.
    for (const project of [SHOP, OTHER, 'no-such-shop'])
      for (const bad of [generateKey(), 'sfk_nonsense'])
        assert.equal(await message(project, bad), 'the API key is not valid', `${project} ${bad}`);
    // A revoked key of another project names nothing either.
    const gone = await createKey(shop.storage, OTHER, 'gone');
    await revokeKey(shop.storage, gone.id);
    assert.equal(await message(SHOP, gone.key), 'the API key is not valid');
  });

  test('plans: fetch_inactive=true with any key of the project lists every status, by id', async () => {
    const key = await shop.key(SHOP, { scopes: ['users:read'] });
    const r = await call(shop.app, 'GET', `/v2/projects/${SHOP}/plans/?fetch_inactive=true`, { headers: bearer(key) });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.data.map((p: { id: number; status: string }) => [p.id, p.status]),
      [
        [1, 'active'],
        [2, 'archived'],
        [3, 'deleted'],
        [4, 'active'],
        [5, 'deactivated'],
      ],
    );
    assert.equal(r.headers['cache-control'], 'private, no-store');
  });

  test('plans: fetch_inactive=true without a valid key is 401; false or absent stays public and active only', async () => {
    const path = `/v2/projects/${SHOP}/plans/`;
    const none = await call(shop.app, 'GET', `${path}?fetch_inactive=true`);
    assert.equal(none.status, 401);
    assert.equal(none.body.error.code, 'unauthorized');
    const foreign = await shop.key(OTHER);
    assert.equal(
      (await call(shop.app, 'GET', `${path}?fetch_inactive=true`, { headers: bearer(foreign) })).status,
      401,
    );
    for (const query of ['', '?fetch_inactive=false']) {
      const r = await call(shop.app, 'GET', path + query);
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.data.map((p: { id: number }) => p.id),
        [1, 4],
      );
      assert.equal(r.headers['cache-control'], 'public, no-cache');
    }
    assert.equal((await call(shop.app, 'GET', `${path}?fetch_inactive=yes`)).status, 400);
  });
});
