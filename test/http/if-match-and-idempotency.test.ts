import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { eachBackend } from '../support/each-backend.js';
import { testApp } from '../support/app.js';
import { seedShop } from '../support/shop.js';

// If-Match (412 on a stale ETag, nothing changed) and Idempotency-Key (replay, no second
// write, conflict on a different body, shared by every process through the database).

eachBackend('optimistic concurrency and idempotency', (backend) => {
  async function setup(t: TestContext) {
    const built = await testApp(t, backend);
    await seedShop(built.storage);
    const key = await built.key('shop');
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      built.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(body),
      });
    return { ...built, keyText: key, post };
  }

  test('If-Match with the ETag of the current GET applies; a stale one is 412 and changes nothing', async (t) => {
    const { app, post } = await setup(t);
    const read = await app.inject({ url: '/v2/projects/shop/products/1' });
    const etag = String(read.headers.etag);
    const first = await post('/v2/projects/shop/products/1', { price: 111 }, { 'if-match': etag });
    assert.equal(first.statusCode, 200);
    assert.equal(first.json().price, 111);
    // The answer's ETag is the one a GET now gives, so it can be used for the next update.
    const now = await app.inject({ url: '/v2/projects/shop/products/1' });
    assert.equal(first.headers.etag, now.headers.etag);

    const stale = await post('/v2/projects/shop/products/1', { price: 222 }, { 'if-match': etag });
    assert.equal(stale.statusCode, 412);
    assert.equal(stale.json().error.code, 'precondition_failed');
    assert.equal((await app.inject({ url: '/v2/projects/shop/products/1' })).json().price, 111);

    assert.equal(
      (await post('/v2/projects/shop/products/1', { price: 333 }, { 'if-match': `W/${String(now.headers.etag)}` }))
        .statusCode,
      412,
      'weak tags never match',
    );
    assert.equal(
      (
        await post(
          '/v2/projects/shop/products/1',
          { price: 333 },
          { 'if-match': `"nope", ${String(now.headers.etag)}` },
        )
      ).statusCode,
      200,
      'one of a list',
    );
    assert.equal((await post('/v2/projects/shop/products/1', { price: 444 }, { 'if-match': '*' })).statusCode, 200);
  });

  test('If-Match on an order update: the ETag of its GET applies, a stale one is 412 and changes nothing', async (t) => {
    const { app, post, keyText } = await setup(t);
    const auth = { authorization: `Bearer ${keyText}` };
    const etag = String((await app.inject({ url: '/v2/projects/shop/orders/2', headers: auth })).headers.etag);
    const ok = await post('/v2/projects/shop/orders/2', { payment_status: 'paid' }, { 'if-match': etag });
    assert.equal(ok.statusCode, 200);
    const stale = await post('/v2/projects/shop/orders/2', { payment_status: 'refunded' }, { 'if-match': etag });
    assert.equal(stale.statusCode, 412);
    assert.equal(stale.json().error.code, 'precondition_failed');
    assert.equal(
      (await app.inject({ url: '/v2/projects/shop/orders/2', headers: auth })).json().payment_status,
      'paid',
    );
    assert.equal(
      (await post('/v2/projects/shop/orders/2', { is_archived: 'true' }, { 'if-match': String(ok.headers.etag) }))
        .statusCode,
      200,
    );
  });

  test('If-Match works for hidden products (read with fetch_hidden) and by handle', async (t) => {
    const { app, post, keyText } = await setup(t);
    const read = await app.inject({
      url: '/v2/projects/shop/products/charlie?fetch_hidden=true',
      headers: { authorization: `Bearer ${keyText}` },
    });
    assert.equal(read.statusCode, 200);
    const ok = await post(
      '/v2/projects/shop/products/charlie',
      { name: 'Cherry 2' },
      { 'if-match': String(read.headers.etag) },
    );
    assert.equal(ok.statusCode, 200);
  });

  test('of many concurrent updates with the same If-Match, exactly one wins', async (t) => {
    const { app, post } = await setup(t);
    const etag = String((await app.inject({ url: '/v2/projects/shop/products/2' })).headers.etag);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post('/v2/projects/shop/products/2', { price: 1000 + i }, { 'if-match': etag }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    assert.deepEqual(statuses, [200, 412, 412, 412, 412, 412, 412, 412]);
    const winner = answers.find((a) => a.statusCode === 200)!.json().price;
    assert.equal((await app.inject({ url: '/v2/projects/shop/products/2' })).json().price, winner);
  });

  test('Idempotency-Key: a retry replays the first answer without a second write', async (t) => {
    const { app, storage, post } = await setup(t);
    const first = await post('/v2/projects/shop/products/5', { price: 5 }, { 'idempotency-key': 'retry-1' });
    assert.equal(first.statusCode, 200);
    const updatedAt = first.json().updated_at;
    // Someone else changes the product in between; the replay must not undo that.
    await post('/v2/projects/shop/products/5', { name: 'Changed by another' });
    const again = await post('/v2/projects/shop/products/5', { price: 5 }, { 'idempotency-key': 'retry-1' });
    assert.equal(again.statusCode, 200);
    assert.equal(again.body, first.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    const now = (await app.inject({ url: '/v2/projects/shop/products/5' })).json();
    assert.equal(now.name, 'Changed by another');
    assert.ok(now.updated_at >= updatedAt);
    const rows = await storage.db.selectFrom('idempotency_keys').selectAll().execute();
    assert.equal(rows.length, 1);
    assert.ok(Number(rows[0].expires_at) - Number(rows[0].created_at) >= 24 * 3600);
  });

  test('Idempotency-Key: the same key with another body is 409; errors are replayed too; bad keys are 400', async (t) => {
    const { post } = await setup(t);
    assert.equal(
      (await post('/v2/projects/shop/products/5', { price: 6 }, { 'idempotency-key': 'k' })).statusCode,
      200,
    );
    const other = await post('/v2/projects/shop/products/5', { price: 7 }, { 'idempotency-key': 'k' });
    assert.equal(other.statusCode, 409);
    assert.equal(other.json().error.code, 'conflict');
    const otherPath = await post('/v2/projects/shop/products/1', { price: 6 }, { 'idempotency-key': 'k' });
    assert.equal(otherPath.statusCode, 409);
    // Key order does not make a different request.
    assert.equal(
      (await post('/v2/projects/shop/products/5', { name: 'n', price: 8 }, { 'idempotency-key': 'k2' })).statusCode,
      200,
    );
    assert.equal(
      (await post('/v2/projects/shop/products/5', { price: 8, name: 'n' }, { 'idempotency-key': 'k2' })).headers[
        'idempotent-replayed'
      ],
      'true',
    );
    // A 4xx from the handler is the answer to that request, and is kept.
    const bad = await post('/v2/projects/shop/products/5', { stock_quantity: 3 }, { 'idempotency-key': 'k3' });
    assert.equal(bad.statusCode, 400);
    const badAgain = await post('/v2/projects/shop/products/5', { stock_quantity: 3 }, { 'idempotency-key': 'k3' });
    assert.equal(badAgain.statusCode, 400);
    assert.equal(badAgain.body, bad.body);
    const malformed = await post('/v2/projects/shop/products/5', { price: 9 }, { 'idempotency-key': 'has space' });
    assert.equal(malformed.statusCode, 400);
  });

  test('Idempotency-Key: keys are per API key, and concurrent retries write once', async (t) => {
    const { storage, post, key } = await setup(t);
    const second = await key('shop');
    const viaSecond = await testApp(t, backend, { storage });
    const res = await viaSecond.app.inject({
      method: 'POST',
      url: '/v2/projects/shop/products/5',
      headers: { authorization: `Bearer ${second}`, 'content-type': 'application/json', 'idempotency-key': 'shared' },
      payload: JSON.stringify({ price: 1 }),
    });
    assert.equal(res.statusCode, 200);
    const mine = await post('/v2/projects/shop/products/5', { price: 2 }, { 'idempotency-key': 'shared' });
    assert.equal(mine.statusCode, 200, 'another key has its own space');
    assert.equal(mine.headers['idempotent-replayed'], undefined);

    const burst = await Promise.all(
      Array.from({ length: 6 }, () =>
        post('/v2/projects/shop/products/5', { price: 77 }, { 'idempotency-key': 'burst' }),
      ),
    );
    const fresh = burst.filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined);
    assert.equal(fresh.length, 1, 'exactly one request did the write');
    for (const r of burst) assert.ok(r.statusCode === 200 || r.statusCode === 409, String(r.statusCode));
  });

  test('Idempotency-Key: a retry that reaches another process is recognised (stored in the database)', async (t) => {
    const { storage, post, keyText } = await setup(t);
    const first = await post('/v2/projects/shop/products/1', { price: 42 }, { 'idempotency-key': 'cross' });
    const otherProcess = await buildApp({ storage });
    t.after(() => otherProcess.close());
    const again = await otherProcess.inject({
      method: 'POST',
      url: '/v2/projects/shop/products/1',
      headers: { authorization: `Bearer ${keyText}`, 'content-type': 'application/json', 'idempotency-key': 'cross' },
      payload: JSON.stringify({ price: 42 }),
    });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body);
  });
});
