import assert from 'node:assert/strict';
import { it } from 'node:test';
import { eachBackend } from '../support/each-backend.js';
import { fieldOf } from '../support/request.js';
import { shopApp } from '../support/shop-app.js';

eachBackend('orders update', (backend) => {
  it('changes only the fields sent, sets updated_at and answers with the whole order', async (t) => {
    const { call, post } = await shopApp(t, backend);
    const before = (await call('GET', '/orders/1')).body;
    const start = Math.floor(Date.now() / 1000);
    const res = await post('/orders/1', { payment_status: 'refunded' });
    assert.equal(res.status, 200);
    const after = res.body;
    assert.ok(after.updated_at >= start && after.updated_at <= Math.floor(Date.now() / 1000) + 1);
    assert.deepEqual(after, { ...before, payment_status: 'refunded', updated_at: after.updated_at });
    assert.deepEqual((await call('GET', '/orders/1')).body, after);
    assert.equal(res.headers['cache-control'], 'private, no-store');
  });

  it('updates every field at once, items and the rest untouched', async (t) => {
    const { call, post } = await shopApp(t, backend);
    const before = (await call('GET', '/orders/3')).body;
    const change = {
      payment_status: 'pending',
      fulfillment_status: 'ready_for_pickup',
      is_canceled: false,
      is_archived: true,
      delivery_information: 'Ring twice.\nThird floor, "blue door".',
    };
    const res = await post('/orders/3', change);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ...before, ...change, updated_at: res.body.updated_at });
  });

  it('accepts every listed status', async (t) => {
    const { post } = await shopApp(t, backend);
    for (const status of ['pending', 'paid', 'failed', 'refunded'])
      assert.equal((await post('/orders/2', { payment_status: status })).body.payment_status, status);
    for (const status of ['unfulfilled', 'shipped', 'ready_for_pickup', 'delivered', 'returned']) {
      assert.equal((await post('/orders/2', { fulfillment_status: status })).body.fulfillment_status, status);
    }
  });

  it('takes the flags as the strings "true"/"false" or as JSON booleans, and answers booleans', async (t) => {
    const { post } = await shopApp(t, backend);
    const steps: Array<[unknown, boolean]> = [
      ['true', true],
      ['false', false],
      [true, true],
      [false, false],
    ];
    for (const [value, expected] of steps) {
      const res = await post('/orders/6', { is_canceled: value, is_archived: value });
      assert.equal(res.status, 200, String(value));
      assert.equal(res.body.is_canceled, expected);
      assert.equal(res.body.is_archived, expected);
    }
  });

  it('is seen by the filters at once', async (t) => {
    const { call, post } = await shopApp(t, backend);
    await post('/orders/1', { is_archived: 'true', payment_status: 'failed' });
    const ids = (await call('GET', '/orders/?is_archived=true&payment_status=failed')).body.data.map(
      (o: { id: number }) => o.id,
    );
    assert.deepEqual(ids, [5, 1]);
  });

  it('keeps delivery_information to 10,000 characters', async (t) => {
    const { post } = await shopApp(t, backend);
    const full = 'é'.repeat(10_000);
    const ok = await post('/orders/2', { delivery_information: full });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.delivery_information, full);
    assert.equal((await post('/orders/2', { delivery_information: '' })).body.delivery_information, '');
    const long = await post('/orders/2', { delivery_information: 'x'.repeat(10_001) });
    assert.equal(long.status, 400);
    assert.equal(fieldOf(long), 'delivery_information');
    assert.match(long.body.error.message, /at most 10000 characters/);
  });

  it('answers 400 naming the field for an unknown field, an empty body or a wrong type, and changes nothing', async (t) => {
    const { call, post } = await shopApp(t, backend);
    const before = (await call('GET', '/orders/4')).body;
    const cases: Array<[unknown, string, RegExp]> = [
      [{}, 'body', /at least one field/],
      [{ customer_email: 'x@example.com' }, 'customer_email', /is not a known field/],
      [{ payment_status: 'paid', total: 1 }, 'total', /is not a known field/],
      [{ payment_status: 'shipped' }, 'payment_status', /must be one of pending, paid, failed, refunded/],
      [{ payment_status: null }, 'payment_status', /must be one of/],
      [{ fulfillment_status: 'lost' }, 'fulfillment_status', /must be one of unfulfilled, shipped/],
      [{ fulfillment_status: 3 }, 'fulfillment_status', /must be one of/],
      [{ is_canceled: 'yes' }, 'is_canceled', /must be true or false/],
      [{ is_canceled: 1 }, 'is_canceled', /must be true or false/],
      [{ is_canceled: 'TRUE' }, 'is_canceled', /must be true or false/],
      [{ is_archived: null }, 'is_archived', /must be true or false/],
      [{ delivery_information: 5 }, 'delivery_information', /must be a string/],
      [{ delivery_information: ['a'] }, 'delivery_information', /must be a string/],
      [{ delivery_information: 'a\u0000b' }, 'delivery_information', /NUL/],
      [[{ payment_status: 'paid' }], 'body', /must be an object/],
      ['paid', 'body', /must be an object/],
      [null, 'body', /must be an object/],
    ];
    for (const [body, field, message] of cases) {
      const res = await post('/orders/4', body);
      const label = JSON.stringify(body);
      assert.equal(res.status, 400, label);
      assert.equal(res.body.error.code, 'invalid_request', label);
      assert.equal(fieldOf(res), field, label);
      assert.match(res.body.error.message, message, label);
    }
    const withQuery = await post('/orders/4?payment_status=paid', { payment_status: 'paid' });
    assert.equal(withQuery.status, 400);
    assert.equal(fieldOf(withQuery), 'payment_status');
    assert.match(withQuery.body.error.message, /is not a known parameter/);
    const both = await post('/orders/4', { payment_status: 'nope', is_archived: 'maybe' });
    assert.deepEqual(both.body.error.details.map((d: { field: string }) => d.field).sort(), [
      'is_archived',
      'payment_status',
    ]);
    assert.deepEqual((await call('GET', '/orders/4')).body, before);
  });

  it('answers 400 for broken JSON, 415 without a JSON content type, 413 over 64 KiB', async (t) => {
    const { call, post } = await shopApp(t, backend);
    const send = (payload: string, contentType?: string) =>
      call('POST', '/orders/4', { raw: payload, headers: contentType ? { 'content-type': contentType } : {} });
    const broken = await send('{"payment_status": ', 'application/json');
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error.code, 'invalid_request');
    const empty = await send('', 'application/json');
    assert.equal(empty.status, 400);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const res = await send('{"payment_status":"paid"}', type);
      assert.equal(res.status, 415, String(type));
      assert.equal(res.body.error.code, 'unsupported_media_type');
    }
    const charset = await send('{"payment_status":"paid"}', 'application/json; charset=utf-8');
    assert.equal(charset.status, 200);
    const big = await post('/orders/4', { delivery_information: 'x'.repeat(70 * 1024) });
    assert.equal(big.status, 413);
    assert.equal(big.body.error.code, 'payload_too_large');
    assert.equal((await call('GET', '/orders/4')).body.delivery_information, '');
  });

  it('answers 404 for an order that does not exist, or belongs to another project', async (t) => {
    const { post } = await shopApp(t, backend);
    for (const path of ['/orders/999', '/orders/77', '/orders/0', '/orders/abc']) {
      const res = await post(path, { payment_status: 'paid' });
      assert.equal(res.status, 404, path);
      assert.equal(res.body.error.code, 'not_found');
    }
  });

  it('leaves the same order of another project alone', async (t) => {
    const { app, post } = await shopApp(t, backend);
    await post('/orders/1', { delivery_information: 'shop only' });
    const other = await app.storage.db
      .selectFrom('orders')
      .selectAll()
      .where('project_id', '=', 'other')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    assert.equal(other.delivery_information, '');
    assert.equal(other.updated_at, 9000);
  });

  it('keeps both of two concurrent updates of different fields of one order', async (t) => {
    const { call, post } = await shopApp(t, backend);
    for (let round = 0; round < 10; round++) {
      const note = `round ${round}`;
      const status = round % 2 ? 'paid' : 'refunded';
      const archived = round % 2 === 0;
      const answers = await Promise.all([
        post('/orders/2', { delivery_information: note }),
        post('/orders/2', { payment_status: status }),
        post('/orders/2', { is_archived: archived }),
      ]);
      for (const a of answers) assert.equal(a.status, 200);
      const now = (await call('GET', '/orders/2')).body;
      assert.equal(now.delivery_information, note, `round ${round}`);
      assert.equal(now.payment_status, status, `round ${round}`);
      assert.equal(now.is_archived, archived, `round ${round}`);
      // Each update read the row under a lock, so the one that committed last saw all three.
      assert.ok(
        answers.some(
          (a) =>
            a.body.delivery_information === note && a.body.payment_status === status && a.body.is_archived === archived,
        ),
        `round ${round}: no answer shows the final state`,
      );
    }
  });
});
