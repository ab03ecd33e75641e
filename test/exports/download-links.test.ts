import assert from 'node:assert/strict';
import { test } from 'node:test';
import { revokeKey } from '../../src/keys/repository.js';
import { suiteApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { OTHER, SHOP, seedShop } from '../support/shop.js';

// One-time download links of exports (docs/API.md, "Exports"): made with a key whose scopes
// are checked then, followed without the Authorization header, good once, for that file and
// exactly that query, and refused once used, altered, or when the key stopped working.

eachBackend('download links of exports', (backend) => {
  const shop = suiteApp(backend, async ({ storage }) => seedShop(storage));
  const base = `/v2/projects/${SHOP}/exports`;
  const link = (key: string, file: string, query = '') =>
    call(shop.app, 'POST', `${base}/${file}/link${query}`, { headers: bearer(key) });

  test('a link downloads the export once, without a key, the same bytes as with the key', async () => {
    const key = await shop.key(SHOP, { scopes: ['orders:read'] });
    const made = await link(key, 'orders.csv', '?payment_status=paid&is_canceled=false');
    assert.equal(made.status, 201, made.text);
    assert.equal(made.headers['cache-control'], 'private, no-store', 'a token is never kept by a cache');
    const { path, expires_at } = made.body as { path: string; expires_at: number };
    assert.match(
      path,
      /^\/v2\/projects\/[^/]+\/exports\/orders\.csv\?is_canceled=false&payment_status=paid&download_token=sfd_/,
    );
    const now = Math.floor(Date.now() / 1000);
    assert.ok(expires_at > now && expires_at <= now + 61, `${expires_at} within a minute`);
    const withKey = await call(shop.app, 'GET', `${base}/orders.csv?payment_status=paid&is_canceled=false`, {
      headers: bearer(key),
    });
    const first = await call(shop.app, 'GET', path);
    assert.equal(first.status, 200, first.text);
    assert.match(String(first.headers['content-disposition']), /^attachment; filename=".*-orders\.csv"$/);
    assert.equal(first.text, withKey.text);
    const again = await call(shop.app, 'GET', path);
    assert.equal(again.status, 401, 'used once');
    assert.match(again.body.error.message, /download link is not valid/);
  });

  test('scopes are checked when the link is made: 403 as the export itself', async () => {
    const key = await shop.key(SHOP, { scopes: ['users:read'] });
    const orders = await link(key, 'orders.csv');
    assert.equal(orders.status, 403, orders.text);
    assert.deepEqual(orders.body.error.details, [{ field: 'scope', message: 'requires orders:read' }]);
    assert.equal((await link(key, 'products.csv', '?fetch_hidden=true')).status, 403);
    assert.equal((await link(key, 'project.ndjson')).status, 403);
    assert.equal((await link(key, 'products.csv')).status, 201, 'any key for the visible products');
    // A bad filter is refused when the link is made, as the export refuses it.
    const bad = await link(await shop.key(SHOP), 'orders.csv', '?payment_status=lost');
    assert.equal(bad.status, 400, bad.text);
    assert.equal((await call(shop.app, 'POST', `${base}/orders.csv/link`)).status, 401);
  });

  test('a link is refused for another query, another file, another project, or a key that stopped', async () => {
    const key = await shop.key(SHOP);
    const fresh = async (query = '?payment_status=paid') =>
      ((await link(key, 'orders.csv', query)).body as { path: string }).path;
    const token = (path: string) => new URL(path, 'http://x').searchParams.get('download_token')!;
    const refused = async (url: string, why: string) => {
      const r = await call(shop.app, 'GET', url);
      assert.equal(r.status, 401, `${why}: ${r.text}`);
      assert.equal(r.headers['www-authenticate'], 'Bearer');
    };
    await refused(`${base}/orders.csv?payment_status=refunded&download_token=${token(await fresh())}`, 'another query');
    await refused(`${base}/products.csv?payment_status=paid&download_token=${token(await fresh())}`, 'another file');
    await refused(
      `/v2/projects/${OTHER}/exports/orders.csv?payment_status=paid&download_token=${token(await fresh())}`,
      'another project',
    );
    await refused(`${base}/orders.csv?download_token=sfd_nothing`, 'an unknown token');
    // The key revoked after the link was made: the link stops with it.
    const ending = await shop.key(SHOP);
    const path = ((await link(ending, 'orders.csv')).body as { path: string }).path;
    const id = (
      (await call(shop.app, 'GET', `/v2/projects/${SHOP}/keys/current`, { headers: bearer(ending) })).body as {
        id: number;
      }
    ).id;
    await revokeKey(shop.storage, id);
    await refused(path, 'a revoked key');
    // With a key in the header the token is not looked at: the key decides.
    const both = await call(shop.app, 'GET', `${base}/orders.csv?download_token=sfd_x`, { headers: bearer(key) });
    assert.equal(both.status, 200, both.text);
  });
});
