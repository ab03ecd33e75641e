import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { Backend } from '../../src/db/connect.js';
import { importDocument } from '../../src/import/import.js';
import { createKey } from '../../src/keys/repository.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { RETRY_DELAYS_MS } from '../../src/webhooks/schedule.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { type Method, bearer, call } from '../support/request.js';
import { OTHER, SHOP, seedShop, shopDocument } from '../support/shop.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

// Webhooks end to end in one process: the shop's writes, the outbox, the delivery worker and
// a real receiver that verifies every delivery with the standardwebhooks package. The retry
// schedule runs on a clock the test moves (jitter fixed at none), so hours pass at once.

const HOOKS = `/v2/projects/${SHOP}/webhooks/`;

async function hookedShop(t: TestContext, backend: Backend, options: { allowPrivate?: boolean } = {}) {
  const clock = { offset: 0 };
  const base = await testApp(t, backend, {
    webhooks: {
      worker: true,
      allowPrivate: options.allowPrivate ?? true,
      now: () => Date.now() + clock.offset,
      random: () => 0.5,
      pollMs: 200,
    },
  });
  await seedShop(base.storage);
  const key = await base.key(SHOP);
  const api = (method: Method, path: string, body?: unknown) =>
    call(base.app, method, `/v2/projects/${SHOP}${path}`, { headers: bearer(key), body });
  const receiver = await startReceiver(t);
  const hook = async (r: Receiver, events?: string[]) => {
    const made = await api('POST', '/webhooks/', { url: r.url, ...(events ? { events } : {}) });
    assert.equal(made.status, 201, made.text);
    r.secrets.push(made.body.secret);
    return made.body as { id: number; secret: string };
  };
  return {
    ...base,
    key,
    api,
    receiver,
    hook,
    /** moves the retry clock forward and lets the worker look at once */
    advance(ms: number) {
      clock.offset += ms;
      base.app.webhooks.worker!.kick();
    },
    nowS: () => Math.floor((Date.now() + clock.offset) / 1000),
  };
}

/** Waits for a condition on stored state (what the worker records after an answer). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

eachBackend('webhooks: events, signatures, retries', (backend) => {
  test('an API update sends its event, with the record as the API answered it, verified', async (t) => {
    const { api, receiver, hook } = await hookedShop(t, backend);
    await hook(receiver);
    const product = await api('POST', '/products/1', { price: 999 });
    assert.equal(product.status, 200);
    const order = await api('POST', '/orders/1', { payment_status: 'refunded' });
    assert.equal(order.status, 200);
    await receiver.waitFor((r) => r.deliveries.length === 2, 'two events');
    const byType = Object.fromEntries(receiver.deliveries.map((d) => [d.type, d]));
    assert.deepEqual(byType['product.updated'].data, product.body);
    assert.deepEqual(byType['order.updated'].data, order.body);
    for (const d of receiver.deliveries) {
      assert.match(d.id, /^msg_[A-Za-z0-9_-]{22}$/);
      assert.match(String(d.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
      assert.ok(Math.abs(Number(d.headers['webhook-timestamp']) - Date.now() / 1000) < 30);
      assert.ok(!Number.isNaN(Date.parse(d.timestamp)), 'timestamp is ISO 8601');
      assert.deepEqual(Object.keys(JSON.parse(d.body)), ['type', 'timestamp', 'data']);
    }
    assert.deepEqual(receiver.badSignatures, []);
  });

  test('an import sends each record it changed, not the unchanged ones, and import.completed with its counts and the cursor from before it', async (t) => {
    const { receiver, hook, storage, api } = await hookedShop(t, backend);
    await hook(receiver);
    // The shop is seeded with this document: only the products, repriced, are changes (CONTRACT 14).
    const document = shopDocument();
    for (const p of document.products) p.price += 1;
    const summary = await importDocument(storage.db, document);
    assert.equal(summary.counts.products, document.products.length);
    assert.equal(summary.changes.users.unchanged, document.users.length);
    await receiver.waitFor((r) => r.deliveries.some((d) => d.type === 'import.completed'), 'import.completed');
    const total = Object.values(summary.counts).reduce((a, b) => a + b, 0);
    await receiver.waitFor((r) => r.deliveries.length === total + 1, 'every record');
    const completed = receiver.deliveries.find((d) => d.type === 'import.completed')!;
    assert.deepEqual(completed.data.counts, summary.counts);
    assert.equal(completed.data.project_id, SHOP);
    assert.equal(completed.data.records, total);
    // The cursor from before the import: the change feed from there holds exactly its records.
    const feed = await api(
      'GET',
      `/changes/?since=${completed.data.cursor}&limit=1000&types=product,category,plan,user,order`,
    );
    assert.equal(feed.status, 200, feed.text);
    assert.equal(feed.body.data.length, total);
    const count = (type: string) => receiver.deliveries.filter((d) => d.type === type).length;
    assert.equal(count('category.changed'), summary.counts.categories);
    assert.equal(count('product.updated'), summary.counts.products);
    assert.equal(count('plan.changed'), summary.counts.plans);
    assert.equal(count('user.changed'), summary.counts.users);
    assert.equal(count('order.updated'), summary.counts.orders);
    const apple = receiver.deliveries.find((d) => d.type === 'product.updated' && d.data.id === 1)!;
    assert.equal(apple.data.handle, 'alpha');
    assert.equal(apple.data.price, 301);
    assert.deepEqual(apple.data.category_ids, [1, 3]);
  });

  test('deletions send product.deleted and order.deleted, with the cascades, and import.completed', async (t) => {
    const { receiver, hook, storage } = await hookedShop(t, backend);
    await hook(receiver);
    const project = { id: SHOP, name: 'Shop', currency: 'EUR' };
    await importDocument(storage.db, {
      project,
      products: [{ id: 2, deleted: true }],
      orders: [{ id: 1, deleted: true }],
    });
    await receiver.waitFor((r) => r.deliveries.some((d) => d.type === 'import.completed'), 'import.completed');
    const completed = receiver.deliveries.find((d) => d.type === 'import.completed')!;
    assert.equal(completed.data.deleted.products, 1);
    assert.equal(completed.data.deleted.orders, 1);
    await receiver.waitFor((r) => r.deliveries.some((d) => d.type === 'product.deleted'), 'product.deleted');
    const of = (type: string) => receiver.deliveries.filter((d) => d.type === type).map((d) => d.data);
    assert.deepEqual(of('product.deleted'), [{ id: 2 }]);
    assert.deepEqual(of('order.deleted'), [{ id: 1 }]);
    // Orders that held product 2 changed (their items lost it): each has its order.updated.
    for (const order of of('order.updated'))
      assert.ok(order.items.some((i: { product_id: number | null }) => i.product_id === null));
  });

  test('an import of more than 1,000 records sends import.completed alone', async (t) => {
    const { receiver, hook, storage } = await hookedShop(t, backend);
    await hook(receiver);
    const products = Array.from({ length: 1001 }, (_, i) => ({
      id: 1000 + i,
      handle: `bulk-${i}`,
      name: `Bulk ${i}`,
      price: 100 + i,
    }));
    await importDocument(storage.db, { project: { id: SHOP, name: 'Shop', currency: 'EUR' }, products });
    await receiver.waitFor((r) => r.deliveries.length === 1, 'import.completed');
    assert.equal(receiver.deliveries[0].type, 'import.completed');
    assert.equal(receiver.deliveries[0].data.counts.products, 1001);
    assert.equal(receiver.deliveries[0].data.per_record_events, false);
    const stored = await storage.db.selectFrom('webhook_messages').select('type').execute();
    assert.deepEqual(stored, [{ type: 'import.completed' }]);
  });

  test('an endpoint gets only the event types it asked for', async (t) => {
    const { api, receiver, hook, storage } = await hookedShop(t, backend);
    const orders = await startReceiver(t);
    await hook(receiver);
    const ordersOnly = await hook(orders, ['order.updated']);
    await api('POST', '/products/2', { price: 1 });
    await api('POST', '/orders/2', { fulfillment_status: 'shipped' });
    await receiver.waitFor((r) => r.deliveries.length === 2, 'both events');
    await orders.waitFor((r) => r.deliveries.length === 1, 'the order event');
    assert.equal(orders.deliveries[0].type, 'order.updated');
    const queued = await storage.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', ordersOnly.id)
      .execute();
    assert.equal(queued.length, 1);
  });

  test('a receiver that fails twice gets the same message again after 5 s, then 5 min', async (t) => {
    const { api, receiver, hook, advance, nowS } = await hookedShop(t, backend);
    const endpoint = await hook(receiver);
    let calls = 0;
    receiver.answer = () => (++calls <= 2 ? 500 : 200);
    const deliveries = async () => (await api('GET', `/webhooks/${endpoint.id}/deliveries`)).body.data;
    await api('POST', '/products/1', { price: 501 });
    const pendingWith = (n: number) => async () => {
      const [d] = await deliveries();
      return d?.attempts.length === n && d.status === 'pending';
    };
    await until(pendingWith(1), 'the first failed attempt');
    let [d] = await deliveries();
    assert.equal(d.attempts[0].status, 500);
    assert.equal(d.attempts[0].response, 'status 500');
    assert.ok(Math.abs(d.next_attempt_at - (nowS() + 5)) <= 1, `next attempt at ${d.next_attempt_at}`);
    advance(RETRY_DELAYS_MS[0]);
    await until(pendingWith(2), 'the second failed attempt');
    [d] = await deliveries();
    assert.ok(Math.abs(d.next_attempt_at - (nowS() + 300)) <= 1, `next attempt at ${d.next_attempt_at}`);
    advance(RETRY_DELAYS_MS[1]);
    await receiver.waitFor((r) => r.deliveries.length === 1, 'the third attempt');
    await until(async () => (await deliveries())[0].status === 'succeeded', 'success recorded');
    [d] = await deliveries();
    assert.deepEqual(
      d.attempts.map((a: { status: number }) => a.status),
      [500, 500, 200],
    );
    assert.equal(new Set(receiver.arrivals.map((a) => a.delivery.id)).size, 1, 'one webhook-id for every attempt');
  });

  test('after the last retry the delivery is failed and kept; replay sends it again', async (t) => {
    const { api, receiver, hook, advance } = await hookedShop(t, backend);
    const endpoint = await hook(receiver);
    receiver.answer = () => 503;
    const deliveries = async () => (await api('GET', `/webhooks/${endpoint.id}/deliveries`)).body.data;
    await api('POST', '/products/3', { price: 7 });
    for (let attempt = 1; attempt <= RETRY_DELAYS_MS.length + 1; attempt++) {
      await until(async () => (await deliveries())[0]?.attempts.length === attempt, `attempt ${attempt}`);
      if (attempt <= RETRY_DELAYS_MS.length) advance(RETRY_DELAYS_MS[attempt - 1]);
    }
    await until(async () => (await deliveries())[0].status === 'failed', 'the delivery failed');
    const [failed] = await deliveries();
    assert.equal(failed.attempts.length, 10);
    assert.equal(failed.next_attempt_at, null);

    receiver.answer = () => 204;
    const replay = await api('POST', `/webhooks/messages/${failed.message_id}/replay`);
    assert.equal(replay.status, 200, replay.text);
    assert.deepEqual(replay.body, {
      message_id: failed.message_id,
      endpoints: [{ endpoint_id: endpoint.id, disabled: false }],
    });
    await receiver.waitFor((r) => r.deliveries.length === 1, 'the replayed message');
    assert.equal(receiver.deliveries[0].id, failed.message_id);
    await until(async () => (await deliveries())[0].status === 'succeeded', 'success recorded');

    // A succeeded message can be replayed too (the receiver lost it).
    await api('POST', `/webhooks/messages/${failed.message_id}/replay`);
    await receiver.waitFor((r) => r.deliveries.length === 2, 'the second replay');
    assert.equal((await api('POST', '/webhooks/messages/msg_0000000000000000000000/replay')).status, 404);
    assert.equal((await api('POST', '/webhooks/messages/nope/replay')).status, 404);
  });

  test('410 disables the endpoint: nothing is queued for it until it is enabled', async (t) => {
    const { api, receiver, hook, advance, storage } = await hookedShop(t, backend);
    const endpoint = await hook(receiver);
    receiver.answer = () => 410;
    await api('POST', '/products/1', { price: 410 });
    const listed = async () => (await api('GET', '/webhooks/')).body.data[0];
    await until(async () => (await listed()).disabled_at !== null, 'the endpoint disabled');
    assert.match((await listed()).disabled_reason, /410/);

    await api('POST', '/products/2', { price: 411 }); // while disabled: not queued
    const queued = await storage.db.selectFrom('webhook_deliveries').select('status').execute();
    assert.deepEqual(queued, [{ status: 'pending' }]);
    advance(RETRY_DELAYS_MS[0]); // due, but the endpoint is disabled: not claimed
    assert.equal((await api('GET', `/webhooks/${endpoint.id}/deliveries`)).body.data[0].attempts.length, 1);

    receiver.answer = () => 204;
    const enabled = await api('POST', `/webhooks/${endpoint.id}/enable`);
    assert.equal(enabled.status, 200);
    assert.equal(enabled.body.disabled_at, null);
    await receiver.waitFor((r) => r.deliveries.length === 1, 'the waiting delivery');
    assert.equal(receiver.deliveries[0].data.price, 410);
  });

  test('a secret roll signs with both secrets during the overlap, then with the new one', async (t) => {
    const { api, receiver, hook } = await hookedShop(t, backend);
    const endpoint = await hook(receiver);
    const old = endpoint.secret;
    const rolled = await api('POST', `/webhooks/${endpoint.id}/roll-secret`, { overlap_seconds: 3600 });
    assert.equal(rolled.status, 201, rolled.text);
    assert.match(rolled.body.secret, /^whsec_/);
    assert.notEqual(rolled.body.secret, old);
    assert.ok(rolled.body.previous_secret_until > 0);
    receiver.secrets.splice(0, 1, old, rolled.body.secret); // each must verify the delivery alone
    await api('POST', '/products/1', { price: 1 });
    await receiver.waitFor((r) => r.deliveries.length === 1, 'a delivery during the roll');
    assert.deepEqual(receiver.deliveries[0].verifiedBy, [old, rolled.body.secret]);
    assert.equal(String(receiver.deliveries[0].headers['webhook-signature']).split(' ').length, 2);

    const again = await api('POST', `/webhooks/${endpoint.id}/roll-secret`, { overlap_seconds: 0 });
    receiver.secrets.splice(0, 2, again.body.secret);
    await api('POST', '/products/1', { price: 2 });
    await receiver.waitFor((r) => r.deliveries.length === 2, 'a delivery after the roll');
    assert.equal(String(receiver.deliveries[1].headers['webhook-signature']).split(' ').length, 1);
    assert.deepEqual(receiver.badSignatures, []);
    assert.equal(again.body.previous_secret_until, null);

    // Without overlap_seconds the old secret keeps signing for 24 hours (CONTRACT 13).
    const now = Math.floor(Date.now() / 1000);
    const byDefault = await api('POST', `/webhooks/${endpoint.id}/roll-secret`, {});
    assert.equal(byDefault.status, 201, byDefault.text);
    assert.ok(Math.abs(byDefault.body.previous_secret_until - now - 86_400) < 60, byDefault.text);
  });

  test('the management API: secrets shown once, scopes, projects, bad input', async (t) => {
    const { app, api, receiver, hook, key } = await hookedShop(t, backend);
    const endpoint = await hook(receiver, ['product.updated', 'import.completed']);
    assert.ok(Buffer.from(endpoint.secret.slice('whsec_'.length), 'base64').length >= 24);
    const list = await api('GET', '/webhooks/');
    assert.equal(list.status, 200);
    assert.deepEqual(Object.keys(list.body.data[0]).sort(), [
      'created_at',
      'disabled_at',
      'disabled_reason',
      'events',
      'id',
      'previous_secret_until',
      'url',
    ]);
    assert.deepEqual(list.body.data[0].events, ['product.updated', 'import.completed']);
    assert.ok(!list.text.includes('whsec_'));

    const reader = (await createKey(app.storage, SHOP, 'r', { scopes: ['orders:read'] })).key;
    const forbidden = await call(app, 'GET', HOOKS, { headers: bearer(reader) });
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body.error.details, [{ field: 'scope', message: 'requires webhooks:manage' }]);
    const otherKey = (await createKey(app.storage, OTHER, 'o')).key;
    const other = (path: string, method: Method = 'GET') =>
      call(app, method, `/v2/projects/${OTHER}/webhooks/${path}`, { headers: bearer(otherKey) });
    assert.equal((await other(`${endpoint.id}/deliveries`)).status, 404);
    assert.equal((await other(`${endpoint.id}`, 'DELETE')).status, 404);

    for (const [body, field] of [
      [{ url: 'ftp://example.com/x' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: receiver.url, events: ['product.exploded'] }, 'events[0]'],
      [{ url: receiver.url, extra: 1 }, ''],
    ] as const) {
      const bad = await api('POST', '/webhooks/', body);
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.equal(bad.body.error.code, 'invalid_request');
      if (field)
        assert.ok(
          bad.body.error.details.some((d: { field: string }) => d.field.startsWith(field)),
          bad.text,
        );
    }
    const withIdem = await call(app, 'POST', HOOKS, {
      headers: { ...bearer(key), 'idempotency-key': 'k1' },
      body: { url: receiver.url },
    });
    assert.equal(withIdem.status, 400, 'an answer holding a secret is never stored for replay');

    const deleted = await api('DELETE', `/webhooks/${endpoint.id}`);
    assert.deepEqual(deleted.body, { id: endpoint.id, deleted: true });
    assert.equal((await api('DELETE', `/webhooks/${endpoint.id}`)).status, 404);
    assert.equal((await api('GET', `/webhooks/${endpoint.id}/deliveries`)).status, 404);
  });

  test('private addresses are refused at creation and at delivery (DNS names too)', async (t) => {
    const { api, receiver, storage } = await hookedShop(t, backend, { allowPrivate: false });
    for (const url of [
      receiver.url,
      'http://localhost:9/x',
      'http://10.1.2.3/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[fe80::1]/x',
    ]) {
      const refused = await api('POST', '/webhooks/', { url });
      assert.equal(refused.status, 400, url);
      assert.match(refused.body.error.message, /loopback, private or link-local/);
    }
    // Stored without the check (as if its name had resolved elsewhere when it was created):
    // the delivery is refused when the name resolves to loopback now.
    const port = new URL(receiver.url).port;
    const { info } = await createEndpoint(storage, SHOP, `http://localhost:${port}/hooks`, undefined, 1);
    await api('POST', '/products/1', { price: 5 });
    const first = async () => (await api('GET', `/webhooks/${info.id}/deliveries`)).body.data[0];
    await until(async () => (await first())?.attempts.length === 1, 'the refused attempt');
    const attempt = (await first()).attempts[0];
    assert.equal(attempt.status, null);
    assert.match(attempt.error, /loopback, private or link-local/);
    assert.equal(receiver.arrivals.length, 0);
  });
});
