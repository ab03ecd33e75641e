import assert from 'node:assert/strict';
import { type TestContext, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createKey, revokeKey } from '../../src/keys/repository.js';
import { generateKey } from '../../src/keys/token.js';
import { eachBackend } from '../support/each-backend.js';
import { type ShopApp, sharedShopApp, shopApp } from '../support/shop-app.js';
import { OTHER, SHOP } from '../support/shop.js';

// The five endpoints of users and orders all need a key of their own project (CONTRACT 7),
// and a bad key is answered before anything else is looked at (CONTRACT 5).

interface Endpoint {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/users/' },
  { method: 'GET', path: '/users/1' },
  { method: 'GET', path: '/orders/' },
  { method: 'GET', path: '/orders/1' },
  { method: 'POST', path: '/orders/1', body: { payment_status: 'refunded' } },
];

function assertUnauthorized(res: LightMyRequestResponse, label: string): void {
  assert.equal(res.statusCode, 401, label);
  assert.equal(res.headers['www-authenticate'], 'Bearer', label);
  assert.equal(res.headers['cache-control'], 'private, no-store', label);
  assert.equal(res.headers['access-control-allow-origin'], '*', label);
  const { error } = res.json();
  assert.equal(error.status, 401, label);
  assert.equal(error.code, 'unauthorized', label);
  assert.equal(typeof error.message, 'string', label);
}

eachBackend('users and orders access', (backend) => {
  // Tests that only read share one app; those that write (or could) get their own.
  const shared = sharedShopApp(backend);
  const setup = async (t: TestContext) => withSend(await shopApp(t, backend));

  function withSend(shop: ShopApp) {
    const send = (e: Endpoint, authorization?: string, over: Partial<Endpoint> & { project?: string } = {}) => {
      const body = over.body ?? e.body;
      const headers: Record<string, string> = {};
      if (authorization !== undefined) headers.authorization = authorization;
      if (e.method === 'POST') headers['content-type'] = 'application/json';
      return shop.app.inject({
        method: e.method,
        url: `/v2/projects/${over.project ?? SHOP}${over.path ?? e.path}`,
        headers,
        ...(e.method === 'POST' ? { payload: JSON.stringify(body) } : {}),
      });
    };
    return { ...shop, send };
  }

  it('answers each endpoint with a key of the project', async (t) => {
    const { send, shopKey } = await setup(t);
    for (const e of ENDPOINTS)
      assert.equal((await send(e, `Bearer ${shopKey}`)).statusCode, 200, `${e.method} ${e.path}`);
    // the scheme name is case-insensitive
    assert.equal((await send(ENDPOINTS[0], `bearer ${shopKey}`)).statusCode, 200);
  });

  it('answers 401 for a missing, malformed or unknown key', async () => {
    const { send, shopKey } = withSend(shared);
    const headers: Array<string | undefined> = [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      `Basic ${Buffer.from(`user:${shopKey}`).toString('base64')}`,
      shopKey,
      `Bearer ${shopKey} extra`,
      `Bearer ${shopKey.slice(0, -1)}`,
      `Bearer ${shopKey}x`,
      'Bearer sfk_not-a-key',
      `Bearer ${generateKey()}`,
    ];
    for (const e of ENDPOINTS) {
      for (const h of headers) assertUnauthorized(await send(e, h), `${e.method} ${e.path} with ${JSON.stringify(h)}`);
    }
  });

  it('answers 401 for a revoked key, at once', async (t) => {
    const { send, storage } = await setup(t);
    const { id, key } = await createKey(storage, SHOP, 'soon revoked');
    assert.equal((await send(ENDPOINTS[2], `Bearer ${key}`)).statusCode, 200);
    assert.equal(await revokeKey(storage, id), true);
    for (const e of ENDPOINTS) assertUnauthorized(await send(e, `Bearer ${key}`), `${e.method} ${e.path}`);
  });

  it('answers 401 for another project’s key, on either project', async () => {
    const { send, shopKey, key } = withSend(shared);
    const otherKey = await key(OTHER);
    for (const e of ENDPOINTS) assertUnauthorized(await send(e, `Bearer ${otherKey}`), `${e.method} ${e.path}`);
    // and the shop's key opens nothing of "other", though its user 1 and order 1 exist
    for (const e of ENDPOINTS)
      assertUnauthorized(await send(e, `Bearer ${shopKey}`, { project: OTHER }), `other ${e.method} ${e.path}`);
    assert.equal((await send(ENDPOINTS[3], `Bearer ${otherKey}`, { project: OTHER })).json().payment_status, 'paid');
  });

  it('answers 401 before any other check', async (t) => {
    const { send, app } = await setup(t);
    const bad = `Bearer ${generateKey()}`;
    const cases: Array<[Endpoint, Partial<Endpoint> & { project?: string }]> = [
      [ENDPOINTS[0], { path: '/users/?perpage=1000' }],
      [ENDPOINTS[0], { path: '/users/?nope=1' }],
      [ENDPOINTS[1], { path: '/users/999' }],
      [ENDPOINTS[1], { path: '/users/abc' }],
      [ENDPOINTS[2], { path: '/orders/?customer_email=not-an-email' }],
      [ENDPOINTS[2], { path: '/orders/?payment_status=paid&payment_status=failed' }],
      [ENDPOINTS[2], { project: 'no-such-project' }],
      [ENDPOINTS[3], { path: '/orders/999' }],
      [ENDPOINTS[4], { body: { payment_status: 'lost', nope: 1 } }],
      [ENDPOINTS[4], { body: {} }],
      [ENDPOINTS[4], { path: '/orders/999' }],
    ];
    for (const [e, over] of cases) assertUnauthorized(await send(e, bad, over), JSON.stringify(over));
    for (const e of ENDPOINTS) assertUnauthorized(await send(e, undefined), `no key ${e.path}`);
    const wrongType = await app.inject({
      method: 'POST',
      url: `/v2/projects/${SHOP}/orders/1`,
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    assertUnauthorized(wrongType, 'text/plain without a key');
    const tooBig = await app.inject({
      method: 'POST',
      url: `/v2/projects/${SHOP}/orders/1`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ delivery_information: 'x'.repeat(70_000) }),
    });
    assertUnauthorized(tooBig, 'over 64 KiB without a key');
  });

  it('a refused update changes nothing', async (t) => {
    const { send, shopKey } = await setup(t);
    await send(ENDPOINTS[4], `Bearer ${generateKey()}`);
    assert.equal((await send(ENDPOINTS[3], `Bearer ${shopKey}`)).json().payment_status, 'paid');
  });

  it('answers a CORS preflight for every endpoint without a key', async () => {
    const { app } = withSend(shared);
    for (const e of ENDPOINTS) {
      const res = await app.inject({
        method: 'OPTIONS',
        url: `/v2/projects/${SHOP}${e.path}`,
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': e.method,
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      assert.equal(res.statusCode, 204, e.path);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      // the method asked is among those allowed (each path allows the methods it serves)
      assert.ok(String(res.headers['access-control-allow-methods']).split(/, ?/).includes(e.method), e.path);
      assert.match(String(res.headers['access-control-allow-headers']), /Authorization/);
    }
  });
});
