import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachBackend } from '../support/each-backend.js';
import { call } from '../support/request.js';
import { sharedShopApp, shopApp } from '../support/shop-app.js';

// What third-party tools sent and got wrong answers for (issue 13): query integers of 16
// digits, bodies that are not UTF-8 or name another charset, broken JSON told apart from a
// prototype key, and errors listing thousands of problems.

const MAX = '9007199254740991';

eachBackend('query integers of any digit count', (backend) => {
  const shop = sharedShopApp(backend);

  test('a 16-digit id or timestamp in range is accepted wherever one is', async () => {
    for (const path of [
      '/products/?category=1000000000000001',
      `/products/?category=${MAX}`,
      '/categories/?root-category=1000000000000001',
      '/orders/?created_after=1000000000000001',
      `/orders/?created_before=${MAX}`,
      '/products/?ids=1000000000000001,1',
    ]) {
      const r = await shop.call('GET', path);
      assert.notEqual(r.status, 400, `${path}: ${r.text}`);
    }
    // leading zeros change nothing
    const padded = await shop.call('GET', '/products/?category=00000000000000000003');
    const plain = await shop.call('GET', '/products/?category=3');
    assert.equal(padded.status, 200);
    assert.deepEqual(padded.body.data, plain.body.data);
    assert.equal((await shop.call('GET', '/categories/?root-category=0000000000000000001')).status, 200);
  });

  test('past 2^53-1 is still a 400 naming the parameter', async () => {
    for (const value of ['9007199254740992', '99999999999999999999', '1'.repeat(400)]) {
      const r = await shop.call('GET', `/products/?category=${value}`);
      assert.equal(r.status, 400, value);
      assert.equal(r.body.error.details[0].field, 'category');
      assert.match(r.body.error.message, /from 1 to 9007199254740991/);
    }
    assert.equal((await shop.call('GET', '/orders/?created_after=0')).status, 200);
  });
});

eachBackend('JSON bodies: UTF-8 only, and clear messages', (backend) => {
  const sendRaw = (shop: Awaited<ReturnType<typeof shopApp>>, raw: Buffer | string, contentType: string) =>
    shop.call('POST', '/products/1', { raw, headers: { 'content-type': contentType } });

  test('bytes that are not UTF-8 are a 400 and nothing is written', async (t) => {
    const shop = await shopApp(t, backend);
    const before = (await shop.call('GET', '/products/1')).text;
    for (const bad of ['eda080', 'fffe', 'c0af', '80', 'f4908080']) {
      const raw = Buffer.concat([Buffer.from('{"name":"x'), Buffer.from(bad, 'hex'), Buffer.from('"}')]);
      const r = await sendRaw(shop, raw, 'application/json');
      assert.equal(r.status, 400, bad);
      assert.equal(r.body.error.code, 'invalid_request');
      assert.match(r.body.error.message, /not valid UTF-8/);
      assert.deepEqual(r.body.error.details, [{ field: 'body', message: 'is not valid UTF-8 text' }]);
    }
    assert.equal((await shop.call('GET', '/products/1')).text, before);
    // real UTF-8 of every length still goes through, stored as sent
    const ok = await sendRaw(shop, Buffer.from('{"name":"Ωμέγα ☕ 𝄞"}', 'utf8'), 'application/json');
    assert.equal(ok.status, 200);
    assert.equal(ok.body.name, 'Ωμέγα ☕ 𝄞');
  });

  test('a charset other than UTF-8 is a 415 and nothing is written', async (t) => {
    const shop = await shopApp(t, backend);
    const before = (await shop.call('GET', '/products/1')).text;
    const latin1 = Buffer.from('{"name":"caf\xe9"}', 'latin1');
    for (const type of [
      'application/json; charset=iso-8859-1',
      'application/json;charset="latin1"',
      'application/json; CHARSET=utf-16',
    ]) {
      const r = await sendRaw(shop, latin1, type);
      assert.equal(r.status, 415, type);
      assert.equal(r.body.error.code, 'unsupported_media_type');
    }
    assert.equal((await shop.call('GET', '/products/1')).text, before);
    for (const type of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"'])
      assert.equal((await sendRaw(shop, '{"price":7}', type)).status, 200, type);
  });

  test('broken JSON and a prototype key get two different messages', async (t) => {
    const shop = await shopApp(t, backend);
    for (const broken of ['{"price":', '{price:5}', "{'price':5}", '{"price":5,}']) {
      const r = await sendRaw(shop, broken, 'application/json');
      assert.equal(r.status, 400);
      assert.equal(r.body.error.message, 'request body is not valid JSON', broken);
      assert.doesNotMatch(r.body.error.message, /__proto__/);
    }
    for (const poisoned of ['{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}']) {
      const r = await sendRaw(shop, poisoned, 'application/json');
      assert.equal(r.status, 400);
      assert.match(r.body.error.message, /holds a __proto__ or constructor\.prototype key/);
      assert.doesNotMatch(r.body.error.message, /not valid JSON/);
    }
  });
});

eachBackend('error details are capped', (backend) => {
  const shop = sharedShopApp(backend);

  test('1,800 unknown parameters: 20 listed, the rest counted, a small answer', async () => {
    const query = Array.from({ length: 1800 }, (_, i) => `unknown_${i}=1`).join('&');
    const r = await call(shop.app, 'GET', `/v2/projects/shop/products/?${query}`);
    assert.equal(r.status, 400);
    assert.equal(r.body.error.details.length, 20);
    assert.equal(r.body.error.more_details, 1780);
    assert.equal(r.body.error.details[0].field, 'unknown_0');
    assert.ok(r.text.length < 2000, `${r.text.length} bytes`);
  });

  test('a few problems are all listed, with no count', async () => {
    const r = await shop.call('GET', '/products/?page=0&perpage=0');
    assert.equal(r.status, 400);
    assert.equal(r.body.error.details.length, 2);
    assert.equal(r.body.error.more_details, undefined);
  });
});

// openapi-fuzzer-core's finding (issue 40): a path that names no record is a 404 whatever the
// body, so a POST without a body to it must not be told about the body first.
eachBackend('a path naming no record is 404 before a missing body is 415', (backend) => {
  const shop = sharedShopApp(backend);
  const writes = ['/products/:p', '/orders/:p', '/keys/:p/roll', '/webhooks/:p/roll-secret'];

  test('unknown and malformed ids, then a known one', async () => {
    for (const route of writes) {
      for (const id of ['abc', '99999', '0', 'Bad%20Id']) {
        const r = await shop.call('POST', route.replace(':p', id));
        assert.equal(r.status, 404, `${route} ${id}: ${r.text}`);
        assert.equal(r.body.error.code, 'not_found');
      }
    }
    for (const path of ['/products/1', '/products/alpha', '/orders/4']) {
      const r = await shop.call('POST', path);
      assert.equal(r.status, 415, `${path}: ${r.text}`);
    }
  });
});
