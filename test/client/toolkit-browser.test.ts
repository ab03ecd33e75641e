import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import { test } from 'node:test';
import type { Storefront } from '../../src/client/index.js';
import { findChromium, launchChromium } from '../support/browser.js';
import { liveServer } from '../support/live-server.js';

// The toolkit as a shop's page uses it: a page on another origin loads
// <script src="{api}/toolkit.js" data-project="shop"> and calls storefront.api() in Chromium,
// so CORS, the script-tag settings and the minified ES2019 build are all exercised for real.

const chromium = findChromium();

declare const storefront: Storefront;

test(
  'toolkit.js in headless Chromium, loaded by a page of another origin',
  { skip: chromium.skip, timeout: 120_000 },
  async (t) => {
    const { baseUrl: api, key } = await liveServer(t, 'sqlite');
    const shop = await servePages(t, {
      '/': `<!doctype html><meta charset="utf-8"><title>shop</title><script src="${api}/toolkit.js" data-project="shop"></script>`,
      '/manual': `<!doctype html><meta charset="utf-8"><title>manual</title><script src="${api}/toolkit.js"></script>`,
    });
    assert.notEqual(new URL(shop).origin, new URL(api).origin);

    const browser = await launchChromium(chromium.path as string);
    t.after(() => browser.close());
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && pageErrors.push(message.text()));
    await page.goto(shop);

    await t.test("api('/products/') resolves to the list", async () => {
      const list = await page.evaluate(() =>
        storefront.api<{ data: { handle: string }[]; meta: { total: number } }>('/products/'),
      );
      assert.deepEqual(
        list.data.map((p) => p.handle),
        ['echo', 'foxtrot', 'bravo', 'delta', 'alpha', 'golf'],
      );
      assert.equal(list.meta.total, 6);
    });

    await t.test('a cross-origin DELETE with a key passes its preflight (CONTRACT 8, issue 29)', async () => {
      const answer = await page.evaluate(
        async ([base, secret]) => {
          // Authorization and DELETE are not CORS-safelisted: the browser sends a preflight
          // first, and refuses the request itself ("Failed to fetch") unless it allows both.
          const response = await fetch(`${base}/v2/projects/shop/webhooks/999999`, {
            method: 'DELETE',
            headers: { Authorization: `Bearer ${secret}`, 'Idempotency-Key': 'browser-1' },
          });
          return {
            status: response.status,
            code: ((await response.json()) as { error: { code: string } }).error.code,
            remaining: response.headers.get('RateLimit-Remaining'),
          };
        },
        [api, key] as const,
      );
      assert.equal(answer.status, 404);
      assert.equal(answer.code, 'not_found');
      assert.match(String(answer.remaining), /^[0-9]+$/, 'an exposed header is readable');
    });

    await t.test("api('/products/<handle>') resolves to the product", async () => {
      const product = await page.evaluate(() =>
        storefront.api<{ id: number; name: string; price: number }>('/products/alpha'),
      );
      assert.deepEqual([product.id, product.name, product.price], [1, 'apple', 300]);
    });

    await t.test('changes() follows the feed and all() walks the pages, in the browser too', async () => {
      const result = await page.evaluate(async () => {
        const feed = storefront.changes({ types: ['product'] });
        const changed: number[] = [];
        for await (const change of feed) changed.push(change.id);
        const walked: string[] = [];
        for await (const product of storefront.products.all({ order: 'name_asc', perpage: 4 }))
          walked.push(product.handle);
        return { changed: changed.sort((a, b) => a - b), cursor: typeof feed.cursor, walked };
      });
      assert.deepEqual(result, {
        changed: [1, 2, 3, 4, 5, 6, 7],
        cursor: 'string',
        walked: ['alpha', 'delta', 'bravo', 'foxtrot', 'golf', 'echo'],
      });
    });

    await t.test('a 404 rejects with a storefront.ApiError', async () => {
      const error = await page.evaluate(() =>
        storefront.api('/products/no-such-thing').then(
          () => null,
          (e) => ({
            isApiError: e instanceof storefront.ApiError,
            status: e.status,
            code: e.code,
            message: e.message,
            body: e.body,
          }),
        ),
      );
      assert.deepEqual(error, {
        isApiError: true,
        status: 404,
        code: 'not_found',
        message: 'product "no-such-thing" not found',
        body: { error: { status: 404, code: 'not_found', message: 'product "no-such-thing" not found' } },
      });
    });

    await t.test('an authorised POST (after init with an apiKey) updates the product', async () => {
      const result = await page.evaluate(async (apiKey) => {
        const before = await storefront
          .api('/products/2', { method: 'POST', body: { price: 1 } })
          .catch((e) => e.status);
        storefront.init({ apiKey });
        const updated = await storefront.api<{ price: number }>('/products/bravo', {
          method: 'POST',
          body: { price: 9900 },
        });
        const reread = await storefront.api<{ price: number }>('/products/bravo');
        return { before, price: updated.price, reread: reread.price };
      }, key);
      assert.deepEqual(result, { before: 401, price: 9900, reread: 9900 });
    });

    await t.test('without data-project, api() rejects until storefront.init() names the project', async () => {
      await page.goto(`${shop}manual`);
      const result = await page.evaluate(async (baseUrl) => {
        const before = await storefront.api('/plans/').then(
          () => 'resolved',
          (e: Error) => e.message,
        );
        storefront.init({ baseUrl, projectId: 'shop' });
        const plans = await storefront.plans.list();
        return { before, plans: plans.data.map((p) => p.name) };
      }, api);
      assert.match(result.before, /no project set/);
      assert.deepEqual(result.plans, ['Basic', 'Team']);
    });

    assert.deepEqual(
      pageErrors.filter((m) => !/status of 40[14]/.test(m)),
      [],
      'no script errors in the page',
    );
  },
);

/** A second origin: a tiny static server for the shop's pages. */
async function servePages(t: { after(fn: () => unknown): void }, pages: Record<string, string>): Promise<string> {
  const server: Server = createServer((request, response) => {
    const body = pages[request.url ?? ''];
    response.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
}
