import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKey } from '../../src/keys/repository.js';
import { SCOPES } from '../../src/keys/scopes.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { OTHER, SHOP, seedShop } from '../support/shop.js';

// The key API under /v2/projects/<project_id>/keys/ (docs/API.md, "Keys over HTTP").

const T0 = 1_900_000_000;
const KEYS = `/v2/projects/${SHOP}/keys/`;

async function setup(t: Parameters<typeof testApp>[0], backend: Parameters<typeof testApp>[1]) {
  const clock = { t: T0 };
  const base = await testApp(t, backend, { now: () => clock.t });
  await seedShop(base.storage);
  const admin = await createKey(base.storage, SHOP, 'admin', { now: T0 });
  const as = (key: string) => ({
    get: (path = '') => call(base.app, 'GET', KEYS + path, { headers: bearer(key) }),
    post: (path: string, body?: unknown, headers: Record<string, string> = {}) =>
      call(base.app, 'POST', KEYS + path, { headers: { ...bearer(key), ...headers }, body }),
  });
  return { ...base, clock, admin, as };
}

eachBackend('the key API', (backend) => {
  test('create shows the key once; list shows scopes, expiry and last use, never a secret', async (t) => {
    const { app, admin, as, clock } = await setup(t, backend);
    const made = await as(admin.key).post('', {
      label: 'static build',
      scopes: ['products:read_hidden'],
      expires_in_days: 90,
    });
    assert.equal(made.status, 201, made.text);
    assert.match(made.body.key, /^sfk_/);
    assert.equal(made.headers['cache-control'], 'private, no-store');
    assert.deepEqual(
      { ...made.body, key: undefined, id: undefined },
      {
        key: undefined,
        id: undefined,
        label: 'static build',
        scopes: ['products:read_hidden'],
        created_at: T0,
        expires_at: T0 + 90 * 86_400,
        last_used_at: null,
      },
    );
    clock.t = T0 + 5;
    const hidden = await call(app, 'GET', `/v2/projects/${SHOP}/products/?fetch_hidden=true`, {
      headers: bearer(made.body.key),
    });
    assert.equal(hidden.status, 200);
    await app.keys.settled();
    const list = await as(admin.key).get();
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((k: { id: number; scopes: string[]; last_used_at: number | null }) => [
        k.id,
        k.scopes.length,
        k.last_used_at,
      ]),
      [
        [admin.id, SCOPES.length, T0], // used at T0 to create; not again within the minute
        [made.body.id, 1, T0 + 5],
      ],
    );
    assert.ok(!list.text.includes(made.body.key) && !list.text.includes(admin.key), 'no secret in the list');
    assert.ok(!list.text.includes('hash'));
  });

  test('scopes default to the asking key’s; a key grants no scope it lacks', async (t) => {
    const { storage, as } = await setup(t, backend);
    const manager = await createKey(storage, SHOP, 'manager', { scopes: ['keys:manage', 'orders:read'] });
    const made = await as(manager.key).post('', { label: 'copy' });
    assert.equal(made.status, 201);
    assert.deepEqual(made.body.scopes, ['orders:read', 'keys:manage']);
    const more = await as(manager.key).post('', { label: 'more', scopes: ['orders:read', 'orders:write'] });
    assert.equal(more.status, 403);
    assert.equal(more.body.error.code, 'forbidden');
    assert.deepEqual(more.body.error.details, [
      { field: 'scopes', message: 'cannot grant orders:write: this key lacks it' },
    ]);
    // Rolling a key with more scopes than the asking one would grant them too.
    const full = await createKey(storage, SHOP, 'full');
    const roll = await as(manager.key).post(`${full.id}/roll`, { overlap_seconds: 0 });
    assert.equal(roll.status, 403);
    const reader = await createKey(storage, SHOP, 'reader', { scopes: ['orders:read'] });
    assert.equal((await as(reader.key).get()).status, 403, 'keys:manage is needed to see keys at all');
  });

  test('revoke and roll over HTTP; the secret-bearing answers refuse an Idempotency-Key', async (t) => {
    const { app, storage, admin, as, clock } = await setup(t, backend);
    const orders = `/v2/projects/${SHOP}/orders/`;
    const ci = await createKey(storage, SHOP, 'ci', { scopes: ['orders:read'], now: T0 });
    const rolled = await as(admin.key).post(`${ci.id}/roll`, { overlap_seconds: 3600 });
    assert.equal(rolled.status, 201, rolled.text);
    assert.deepEqual(
      [rolled.body.label, rolled.body.scopes, rolled.body.previous.id, rolled.body.previous.expires_at],
      ['ci', ['orders:read'], ci.id, T0 + 3600],
    );
    assert.equal((await call(app, 'GET', orders, { headers: bearer(ci.key) })).status, 200);
    clock.t = T0 + 3600;
    assert.equal((await call(app, 'GET', orders, { headers: bearer(ci.key) })).status, 401);
    assert.equal((await call(app, 'GET', orders, { headers: bearer(rolled.body.key) })).status, 200);

    const revoked = await as(admin.key).post(`${rolled.body.id}/revoke`);
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.revoked_at, clock.t);
    assert.equal((await call(app, 'GET', orders, { headers: bearer(rolled.body.key) })).status, 401);
    assert.equal((await as(admin.key).post(`${rolled.body.id}/revoke`)).status, 404, 'already revoked');
    assert.equal((await as(admin.key).post(`${rolled.body.id}/roll`, { overlap_seconds: 0 })).status, 404);

    const idem = await as(admin.key).post('', { label: 'x' }, { 'idempotency-key': 'once' });
    assert.equal(idem.status, 400);
    assert.equal(idem.body.error.details[0].field, 'Idempotency-Key');
    for (const [body, field] of [
      [{ label: 'x', scopes: ['root'] }, 'scopes[0]'],
      [{ label: 'x', expires_in_days: 0 }, 'expires_in_days'],
      [{ scopes: ['orders:read'] }, 'label'],
      [{ label: 'x', secret: 'mine' }, 'secret'],
    ] as const) {
      const bad = await as(admin.key).post('', body);
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.equal(bad.body.error.details[0].field, field, bad.text);
    }
    const badOverlap = await as(admin.key).post(`${admin.id}/roll`, { overlap_seconds: 31 * 86_400 });
    assert.equal(badOverlap.status, 400);
  });

  test("another project's keys are out of reach: 404, and its key is 401 here", async (t) => {
    const { app, storage, admin, as } = await setup(t, backend);
    const foreign = await createKey(storage, OTHER, 'theirs');
    for (const path of [`${foreign.id}/revoke`, `${foreign.id}/roll`]) {
      const res = await as(admin.key).post(path, path.endsWith('roll') ? { overlap_seconds: 0 } : undefined);
      assert.equal(res.status, 404, path);
    }
    assert.ok(!JSON.stringify((await as(admin.key).get()).body).includes('theirs'));
    assert.equal((await as(foreign.key).get()).status, 401);
    assert.equal((await as(admin.key).post('999999/revoke')).status, 404);
    // The foreign key works in its own project, and a project that does not exist is 401 for any key.
    const own = await call(app, 'GET', `/v2/projects/${OTHER}/keys/`, { headers: bearer(foreign.key) });
    assert.equal(own.status, 200);
    assert.equal((await call(app, 'GET', '/v2/projects/nope/keys/', { headers: bearer(admin.key) })).status, 401);
  });

  test('/metrics names no key: neither its secret nor its id (issue 29)', async (t) => {
    const { app, admin, as } = await setup(t, backend);
    await as(admin.key).get();
    await as(admin.key).get();
    const text = (await call(app, 'GET', '/metrics')).text;
    assert.match(
      text,
      /http_requests_total\{method="GET",route="\/v2\/projects\/:project_id\/keys\/",status="200"\} 2/,
    );
    assert.doesNotMatch(text, /key_id|by_key/);
    assert.ok(!text.includes(admin.key) && !text.includes(admin.key.slice(4, 20)));
  });
});
