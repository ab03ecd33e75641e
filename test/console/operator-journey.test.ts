import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import type * as Axe from 'axe-core';
import type { Page, Request, Response } from 'playwright-core';
import { createClient } from '../../src/client/index.js';
import { findChromium, launchChromium } from '../support/browser.js';
import { liveServer } from '../support/live-server.js';
import { startReceiver } from '../support/webhook-receiver.js';

// An operator's day in the console (CONTRACT 15), in headless Chromium against a fresh
// server on SQLite with the demo project (import jobs running): one server, one browser, one page. Every request
// to another origin is blocked and fails the test, as does any console error. Screenshots at
// 1280 and 390 pixels go to a temporary folder (printed), never into the repository.

const chromium = findChromium();
// axe-core, run inside the page (CDP's evaluate is not bound by the console's CSP).
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const FIRST_LOAD_LIMIT = 100 * 1024;

test('the operator console, from sign-in to a webhook replay', { skip: chromium.skip, timeout: 300_000 }, async (t) => {
  const server = await liveServer(t, 'sqlite', 'demo', {
    webhooks: { worker: true, allowPrivate: true, pollMs: 200 },
    imports: { runner: true, pollMs: 100 },
  });
  const base = server.baseUrl;
  const admin = createClient({ baseUrl: base, projectId: 'demo', apiKey: server.key });
  const receiver = await startReceiver(t);
  let endpointId = 0;
  // Six paid orders waiting to be shipped, whatever the demo's random statuses are.
  const waiting = (await admin.orders.list({ perpage: 6, is_canceled: false, is_archived: false })).data;
  for (const o of waiting)
    await admin.orders.update(o.id, { payment_status: 'paid', fulfillment_status: 'unfulfilled' });

  const browser = await launchChromium(chromium.path as string);
  t.after(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const foreign: string[] = [];
  const expected: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // Chromium logs every 4xx answer as "Failed to load resource"; the journey provokes five on
  // purpose (the mistyped project's 401, the conflict's 412, the bad prices' 400s, the stale
  // batch's 409), which the console shows as messages.
  const provoked = /Failed to load resource: the server responded with a status of (412|400|401|409) /;
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (provoked.test(message.text())) expected.push(message.text());
    else problems.push(`console: ${message.text()}`);
  });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === base) return route.continue();
    foreign.push(url);
    return route.abort('blockedbyclient');
  });
  const shots = mkdtempSync(join(tmpdir(), 'storefront-console-'));
  // Every screen shot is also checked at 390 px: no sideways scroll (the page no wider than
  // the window; the elements that stick out are named when it fails).
  // With `scan`, a state reached by steps (not by an address, so not in the last test's list)
  // is also checked by axe where it is, at both widths.
  const shoot = async (name: string, scan = false) => {
    const findings: string[] = [];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: false });
      const wide = await page.evaluate(overflowing);
      assert.deepEqual(wide, [], `${name} at ${width} px scrolls sideways`);
      if (scan) findings.push(...(await axeFindings(page)).map((f) => `${name} at ${width} px: ${f}`));
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(findings, [], 'serious and critical axe violations');
  };
  const status = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first();

  await t.test('first load: within 100 KB compressed, from this origin only', async () => {
    const bodies: Buffer[] = [];
    const collect = async (response: Response) => {
      if (response.request().resourceType() !== 'fetch') bodies.push(await response.body());
    };
    page.on('response', (r) => void collect(r));
    await page.goto(`${base}/console/`);
    await page.getByLabel('API key').waitFor();
    page.removeAllListeners('response');
    const raw = bodies.reduce((n, b) => n + b.length, 0);
    const gzip = bodies.reduce((n, b) => n + gzipSync(b).length, 0);
    const brotli = bodies.reduce((n, b) => n + brotliCompressSync(b).length, 0);
    console.log(`# console first load: ${bodies.length} files, ${raw} bytes, ${gzip} gzip, ${brotli} brotli`);
    assert.ok(bodies.length >= 3, 'the page, its script and its stylesheet');
    assert.ok(gzip <= FIRST_LOAD_LIMIT, `first load ${gzip} bytes gzip`);
  });

  await t.test('sign in with the project id and key; home shows the waiting orders and the chart', async () => {
    // A mistyped project id with a good key is told apart from a bad key, and mended.
    await page.getByLabel('Project id').fill('dmeo');
    await page.getByLabel('API key').fill(server.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'this API key belongs to project "demo", not "dmeo"' }).waitFor();
    await page.getByRole('button', { name: 'Sign in to project demo with this key' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.getByRole('link', { name: /Paid, not yet shipped/ }).waitFor();
    // The chart is loaded apart from the tiles: wait for its last day before counting.
    await page.locator('.bars li').nth(13).waitFor();
    assert.equal(await page.locator('.bars li').count(), 14);
    // The demo's orders are dated back from the server's start: a fresh chart is not empty.
    const caption = (await page.locator('.bars figcaption').textContent())!;
    assert.ok(Number(/^([\d,]+) orders/.exec(caption)![1].replace(/,/g, '')) >= 20, caption);
    await shoot('home');
  });

  await t.test('add a webhook endpoint: its signing secret shown once, with a copy button', async () => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Address (URL)').fill(receiver.url);
    await page.getByLabel(/order\.updated/).check();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    await status(/^Endpoint \d+ added\.$/).waitFor();
    endpointId = Number(/Endpoint (\d+)/.exec((await status(/added/).textContent())!)![1]);
    const secret = (await page.locator('.secret-text').textContent())!.trim();
    assert.match(secret, /^whsec_/);
    await page.getByRole('button', { name: 'Copy the secret' }).waitFor();
    receiver.secrets.push(secret);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    assert.equal(await page.locator('.secret-text').count(), 0, 'shown once');
    const [made] = (await admin.webhooks.list()).data;
    assert.deepEqual([made.id, made.url, made.events], [endpointId, receiver.url, ['order.updated']]);
  });

  await t.test('filter paid unfulfilled orders: the filter is in the address', async () => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByLabel('Payment').selectOption('paid');
    await page.getByLabel('Fulfillment').selectOption('unfulfilled');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/payment_status=paid/);
    assert.match(page.url(), /fulfillment_status=unfulfilled/);
    await page.getByText(/orders match/).waitFor();
    const rows = page.locator('tbody tr');
    await rows.first().waitFor();
    assert.ok((await rows.count()) >= 6);
    await shoot('orders');
    // A reload of the address gives the same view.
    await page.reload();
    assert.equal(await page.getByLabel('Payment').inputValue(), 'paid');
    // Saved as a named view (kept in this browser), and opened again from an unfiltered list.
    await page.getByLabel('Name of this view').fill('Paid, to ship');
    await page.getByRole('button', { name: 'Save this view' }).click();
    await page.goto(`${base}/console/orders`);
    await page.getByRole('region', { name: 'Saved views' }).getByRole('link', { name: 'Paid, to ship' }).click();
    await page.waitForURL(/payment_status=paid/);
    assert.match(page.url(), /fulfillment_status=unfulfilled/);
    assert.equal(await page.getByLabel('Fulfillment').inputValue(), 'unfulfilled');
  });

  let orderId = 0;
  await t.test('open one, mark it shipped (with If-Match)', async () => {
    const link = page.locator('tbody tr a').first();
    orderId = Number((await link.textContent())!.replace('#', ''));
    await link.click();
    await page.getByRole('heading', { name: `Order #${orderId}` }).waitFor();
    await page.getByRole('group', { name: 'Quick changes' }).getByRole('button', { name: 'Mark shipped' }).click();
    await status(/Saved: fulfillment → shipped/).waitFor();
    assert.equal(await page.locator('[data-field=fulfillment_status]').textContent(), 'shipped');
    assert.equal((await admin.orders.get(orderId)).fulfillment_status, 'shipped');
  });

  await t.test('a change behind the page’s back: the conflict is shown with the newer order', async () => {
    await admin.orders.update(orderId, { payment_status: 'refunded' });
    await page.getByRole('group', { name: 'Quick changes' }).getByRole('button', { name: 'Mark delivered' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Not saved: this order changed since you opened it' });
    await alert.waitFor();
    assert.match((await alert.textContent())!, /payment_status: paid → refunded/);
    assert.equal(await page.locator('[data-field=payment_status]').textContent(), 'refunded');
    assert.equal((await admin.orders.get(orderId)).fulfillment_status, 'shipped', 'nothing was saved');
  });

  await t.test('cancel asks first and can be undone from the detail', async () => {
    await page.goto(`${base}/console/orders/${orderId}`);
    const quick = page.getByRole('group', { name: 'Quick changes' });
    await quick.getByRole('button', { name: 'Cancel', exact: true }).click();
    const ask = page.getByRole('group', { name: `Cancel order #${orderId}?` });
    await ask.waitFor();
    assert.equal((await admin.orders.get(orderId)).is_canceled, false, 'nothing done before the answer');
    // "Keep it" closes the question and gives the focus back to the button that opened it.
    await ask.getByRole('button', { name: 'Keep it' }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Cancel');
    await quick.getByRole('button', { name: 'Cancel', exact: true }).press('Enter');
    // The confirming button takes the focus (waited for: on a busy machine it comes a moment later).
    await page.waitForFunction((yes) => document.activeElement?.textContent === yes, `Yes, cancel order #${orderId}`);
    await page.keyboard.press('Enter');
    await status('Saved: is canceled → true.').waitFor();
    assert.equal((await admin.orders.get(orderId)).is_canceled, true);
    await quick.getByRole('button', { name: 'Un-cancel' }).click();
    await status('Saved: is canceled → false.').waitFor();
    assert.equal((await admin.orders.get(orderId)).is_canceled, false);
    await quick.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: `Yes, archive order #${orderId}` }).click();
    await status('Saved: is archived → true.').waitFor();
    await quick.getByRole('button', { name: 'Unarchive' }).click();
    await status('Saved: is archived → false.').waitFor();
    assert.equal((await admin.orders.get(orderId)).is_archived, false);
  });

  await t.test('three orders changed at once, each with its own result', async () => {
    await page.goto(`${base}/console/orders?payment_status=paid&fulfillment_status=unfulfilled`);
    const boxes = page.locator('tbody input[type=checkbox]');
    await boxes.first().waitFor();
    for (let i = 0; i < 3; i++) await boxes.nth(i).check();
    await page
      .getByRole('group', { name: 'Change the selected orders' })
      .getByRole('button', { name: 'Mark shipped' })
      .click();
    const results = page.locator('.outcomes li.ok');
    await results.nth(2).waitFor();
    assert.equal(await results.count(), 3);
  });

  await t.test('export the paid, unfulfilled orders as CSV: the file holds the filtered list', async () => {
    // A page smaller than the list: the file has every match, not the page shown.
    await page.goto(`${base}/console/orders?payment_status=paid&fulfillment_status=unfulfilled&perpage=2`);
    const links = page.locator('tbody tr a');
    await links.first().waitFor();
    const shown = await links.allTextContents();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'demo-orders.csv');
    // The browser's own download of a one-time link, not a file put together in the tab.
    assert.match(download.url(), new RegExp(`^${base}/v2/projects/demo/exports/orders\\.csv\\?.*download_token=sfd_`));
    assert.equal((await fetch(download.url())).status, 401, 'the link works once');
    const rows = parse<Record<string, string>>(readFileSync(await download.path()), { columns: true, bom: true });
    const listed = await everyId((page) =>
      admin.orders.list({ payment_status: 'paid', fulfillment_status: 'unfulfilled', perpage: 100, page }),
    );
    assert.deepEqual(
      rows.map((r) => Number(r.id)),
      listed,
      'every matching order, in the list’s order',
    );
    assert.deepEqual(
      rows.slice(0, shown.length).map((r) => `#${r.id}`),
      shown,
      'the page shown starts the file',
    );
    assert.ok(rows.length > shown.length, `${rows.length} rows, ${shown.length} shown`);
    assert.ok(rows.every((r) => r.payment_status === 'paid' && r.fulfillment_status === 'unfulfilled'));
    await status('demo-orders.csv: saving through the browser’s downloads').waitFor();
  });

  await t.test('fix a price; a bad one gets the API’s message beside the field', async () => {
    await page.goto(`${base}/console/products?order=name_asc`);
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    const price = page.getByLabel(/^Price \(/);
    await price.fill('12.34');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await status('Saved').waitFor();
    const first = (await admin.products.list({ order: 'name_asc', perpage: 1 })).data[0];
    assert.equal(first.price, 1234);
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    await page.getByLabel(/^Price \(/).fill('-5');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const message = page.locator('.field-error').first();
    await message.waitFor();
    assert.match((await message.textContent())!, /0|minimum|negative|>=/);
    assert.equal(await page.getByLabel(/^Price \(/).getAttribute('aria-invalid'), 'true');
  });

  await t.test(
    'bulk edit: a bad cell is marked and nothing is written; then both prices in one batch, only what was edited',
    async () => {
      await page.goto(`${base}/console/products?order=name_asc`);
      // An inline edit first: the grid opened after it starts from the new price, not the page's old one.
      await page
        .getByRole('button', { name: /^Edit / })
        .first()
        .click();
      await page.getByLabel(/^Price \(/).fill('12.50');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await status('Saved').waitFor();
      await page.getByRole('button', { name: 'Bulk edit this page' }).click();
      const [a, b] = (await admin.products.list({ order: 'name_asc', perpage: 2 })).data;
      const price = (p: { name: string; currency: string }) => page.getByLabel(`Price of ${p.name} (${p.currency})`);
      assert.equal(a.price, 1250);
      assert.equal(await price(a).inputValue(), '12.50', 'the grid shows the inline edit');
      await price(a).fill('7.50');
      await price(b).fill('-1');
      const save = page.getByRole('button', { name: 'Save every change at once' });
      const batches: { products: Record<string, unknown>[] }[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PATCH') batches.push(r.postDataJSON());
      });
      await save.click();
      await status(/Nothing was saved/).waitFor();
      assert.equal(await price(b).getAttribute('aria-invalid'), 'true');
      assert.equal(await price(a).getAttribute('aria-invalid'), null);
      assert.match((await page.locator('.bad-cell .field-error').textContent())!, /0|minimum|>=/);
      assert.equal((await admin.products.get(a.id)).price, a.price, 'all or nothing: the good cell was not written');
      await shoot('bulk-edit');
      await price(b).fill('8.25');
      await save.click();
      await status(/Saved 2 products in one batch/).waitFor();
      const [a2, b2] = [await admin.products.get(a.id), await admin.products.get(b.id)];
      assert.deepEqual([a2.price, b2.price], [750, 825]);
      // Only the edited field of each product was sent, with the ETag of the product the grid showed.
      const sent = batches.at(-1)!.products;
      assert.deepEqual(
        sent.map(({ if_match: _, ...item }) => item),
        [
          { id: a.id, price: 750 },
          { id: b.id, price: 825 },
        ],
      );
      for (const item of sent) assert.match(String(item.if_match), /^"[\w-]{27}"$/);
      assert.deepEqual(
        { ...a2, price: a.price, updated_at: a.updated_at },
        { ...a, updated_at: a.updated_at },
        'only the price changed',
      );
      // A change behind the page's back: the batch's if_match is stale, nothing is written, and
      // the product is named.
      await page.getByRole('button', { name: 'Save every change at once' }).waitFor();
      await admin.products.update(a.id, { name: `${a.name} (renamed)` });
      await price(a).fill('9.00');
      await save.click();
      await page
        .getByRole('alert')
        .filter({ hasText: `${a.name}: changed by someone else` })
        .waitFor();
      assert.equal((await admin.products.get(a.id)).price, 750);
      // Closing the editor drops its unsaved edits (a reload would ask first).
      await page.getByRole('button', { name: 'Close the bulk editor' }).click();
    },
  );

  await t.test('bulk edit under a price sort: the saved row leaves the page, the confirmation stays', async () => {
    await page.goto(`${base}/console/products?order=price_desc`);
    await page.getByRole('button', { name: 'Bulk edit this page' }).click();
    const [top] = (await admin.products.list({ order: 'price_desc', perpage: 1 })).data;
    await page.getByLabel(`Price of ${top.name} (${top.currency})`).fill('0.01');
    await page.getByRole('button', { name: /^Save every change/ }).click();
    await status(/^Saved 1 product in one batch/).waitFor();
    assert.equal((await admin.products.get(top.id)).price, 1);
    // The grid is the new first page, without the product; the confirmation is still there.
    await page.getByLabel(`Price of ${top.name} (${top.currency})`).waitFor({ state: 'detached' });
    assert.equal(await status(/^Saved 1 product/).isVisible(), true);
    // An unsaved edit: leaving for another screen asks first, and staying keeps it.
    await page.locator('.grid-edit input.num').first().fill('3.00');
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.dismiss();
      }),
    );
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Orders' }).click();
    assert.match(await asked, /unsaved changes to 1 product/);
    assert.match(page.url(), /\/console\/products/);
    assert.equal(await page.locator('.grid-edit input.num').first().inputValue(), '3.00');
    await page.getByRole('button', { name: 'Close the bulk editor' }).click();
  });

  await t.test('export the products of a sort order as CSV: every page of it', async () => {
    await page.goto(`${base}/console/products?order=price_desc&perpage=2`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'demo-products.csv');
    assert.match(download.url(), /download_token=sfd_/);
    const rows = parse<Record<string, string>>(readFileSync(await download.path()), { columns: true, bom: true });
    const listed = await everyId((page) => admin.products.list({ order: 'price_desc', perpage: 100, page }));
    assert.deepEqual(
      rows.map((r) => Number(r.id)),
      listed,
    );
  });

  await t.test(
    'shopper search: a typo finds the product, with facet counts beside the filters, kept in a view',
    async () => {
      // The counts cost a count of every match: none are asked for before a search or a filter.
      const counting: string[] = [];
      const onRequest = (r: Request) => void (r.url().includes('facets=') && counting.push(r.url()));
      page.on('request', onRequest);
      await page.goto(`${base}/console/products`);
      await page.getByText(/products match/).waitFor();
      assert.deepEqual(counting, [], 'no facets for the plain list');
      const typed = 'saucepna';
      const expected = await admin.products.list({ q: typed, facets: 'category,in_stock' });
      const cookware = expected.meta.facets!.category!.find((c) => c.id === 7)!.count;
      assert.ok(expected.meta.total > 0 && cookware > 0);
      await page.getByLabel('Search', { exact: true }).fill(typed);
      await page.getByLabel('Search', { exact: true }).press('Enter');
      await page.waitForURL(/q=saucepna/);
      assert.doesNotMatch(page.url(), /order=/);
      assert.equal(await page.getByLabel('Sort').inputValue(), 'relevance', 'the best matches first, with words');
      await page.getByRole('checkbox', { name: `Cookware (${cookware})` }).waitFor();
      assert.equal(
        await page.getByRole('checkbox', { name: /^Bags/ }).count(),
        0,
        'a category without a match is left out',
      );
      page.off('request', onRequest);
      assert.equal(counting.length, 1, 'one request for the counts of the search');
      const listed = page.locator('table.products tbody');
      await listed
        .getByText(/Saucepan/)
        .first()
        .waitFor();
      assert.match((await listed.textContent())!, new RegExp(expected.data[0].name));
      assert.equal(await page.getByText(/products match/).textContent(), `${expected.meta.total} products match`);
      // The CSV export takes the shopper search as the list does.
      assert.equal(await page.getByRole('button', { name: 'Export CSV' }).isDisabled(), false);
      // A filter beside its count: the counts follow the query and the filter.
      const inStock = expected.meta.facets!.in_stock!.true;
      await page.getByRole('radio', { name: `in stock (${inStock})` }).check();
      await page.getByRole('button', { name: 'Apply these filters' }).click();
      await page.waitForURL(/in_stock=true/);
      assert.match(page.url(), /q=saucepna/);
      await page.getByText(`${inStock} products match`).waitFor();
      await shoot('products-search', true);
      // Saved as a view, and opened again from an unfiltered list.
      await page.getByLabel('Name of this view').fill('Saucepans in stock');
      await page.getByRole('button', { name: 'Save this view' }).click();
      await page.goto(`${base}/console/products`);
      await page.getByRole('region', { name: 'Saved views' }).getByRole('link', { name: 'Saucepans in stock' }).click();
      await page.waitForURL(/in_stock=true/);
      assert.equal(await page.getByLabel('Search', { exact: true }).inputValue(), typed);
      assert.equal(await page.getByRole('radio', { name: /^in stock/ }).isChecked(), true);
    },
  );

  await t.test('an NDJSON import: the dry run lists the bad line; a good file is checked, then applied', async () => {
    await page.goto(`${base}/console/imports`);
    const project = await admin.project();
    const line = (record: object) => `${JSON.stringify(record)}\n`;
    const good =
      line({ type: 'project', ...project }) +
      line({
        type: 'product',
        id: 900001,
        handle: 'console-import',
        name: 'From the console',
        price: 500,
        sku: '00123',
      });
    const file = page.getByLabel('File to import');
    const send = (name: string, text: string) =>
      file.setInputFiles({ name, mimeType: 'application/x-ndjson', buffer: Buffer.from(text) });
    const dryRun = page.getByRole('button', { name: 'Check it (dry run)' });
    const apply = page.getByRole('button', { name: 'Apply the import' });
    await send('bad.ndjson', good + line({ type: 'product', id: 900002, handle: 'bad-one', name: 'Bad', price: 'x' }));
    await dryRun.click();
    await status(/Dry run #\d+: Failed/).waitFor();
    assert.match((await page.locator('.import-errors').textContent())!, /line 3/);
    assert.equal(await apply.count(), 0, 'a file with a bad line is not offered to apply');
    await send('good.ndjson', good);
    await dryRun.click();
    await status(/Dry run #\d+: Succeeded/).waitFor();
    const upload = page.getByLabel('Upload');
    assert.equal(await upload.getAttribute('value'), await upload.getAttribute('max'), 'the whole file was sent');
    await apply.click();
    await status(/^Import #\d+: Succeeded/).waitFor();
    assert.equal((await admin.products.get(900001)).name, 'From the console');
    await page.getByRole('cell', { name: 'dry run' }).nth(1).waitFor();
    await shoot('imports');
  });

  await t.test(
    'a CSV dry run shows what it would change and a spreadsheet’s damage; canceled, then applied',
    async () => {
      // A spreadsheet's round trip: a new price, and the SKU "00123" read as the number 123.
      const csv = 'id,price,sku\r\n900001,650,123\r\n';
      const choose = () =>
        page
          .getByLabel('File to import')
          .setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      const dryRun = page.getByRole('button', { name: 'Check it (dry run)' });
      const decide = page.getByRole('group', { name: 'Apply the checked file?' });
      await choose();
      await dryRun.click();
      await status(/Dry run #\d+: Succeeded/).waitFor();
      const products = page
        .getByRole('table', { name: 'Records the import would change, by type' })
        .getByRole('row', { name: /^products/ });
      assert.deepEqual(
        await products.getByRole('cell').allTextContents(),
        ['0', '1', '0', '0'],
        'new, changed, unchanged, deleted',
      );
      assert.equal(
        await page.locator('.changed-fields').textContent(),
        'Changed products, by field: price in 1 · sku in 1',
      );
      const warnings = page.getByRole('region', { name: /^1 warning/ });
      assert.match((await warnings.textContent())!, /row 2 · sku: lost its leading zeros \("00123" became "123"\)/);
      await shoot('imports-dry-run', true);
      // Cancel: the file is dropped and nothing was written.
      await decide.getByRole('button', { name: 'Cancel' }).click();
      await status('Canceled: nothing was imported. Choose a file to start again.').waitFor();
      assert.equal(await decide.count(), 0);
      assert.deepEqual(pick(await admin.products.get(900001)), { price: 500, sku: '00123' });
      // Checked again and applied: a warning never stops an import.
      await choose();
      await dryRun.click();
      await status(/Dry run #\d+: Succeeded/).waitFor();
      await decide.getByRole('button', { name: 'Apply the import' }).click();
      await status(/^Import #\d+: Succeeded/).waitFor();
      await page.getByRole('table', { name: 'Records the import changed, by type' }).waitFor();
      assert.deepEqual(pick(await admin.products.get(900001)), { price: 650, sku: '123' });
      // The latest imports count its warning.
      const newest = page.getByRole('table', { name: 'The latest imports, newest first' }).locator('tbody tr').first();
      await newest.locator('td:nth-child(3)', { hasText: /^import$/ }).waitFor();
      assert.equal(await newest.locator('td').last().textContent(), '1');
    },
  );

  await t.test('home: an import that failed needs attention', async () => {
    const project = await admin.project();
    await admin.imports.create(`${JSON.stringify({ type: 'project', ...project })}\n{"type":"product","price":"x"}\n`, {
      wait: 30,
    });
    await page.goto(`${base}/console/`);
    await page.getByRole('link', { name: /The latest import \(#\d+, .*\) failed with \d+ error/ }).waitFor();
  });

  await t.test('every screen at 1280 and 390 px: no sideways scroll, no serious or critical axe finding', async () => {
    // Each screen is loaded afresh and scanned once its requests have settled.
    const screens = [
      '',
      'orders',
      `orders/${orderId}`,
      'products',
      'categories',
      'plans',
      'users',
      'keys',
      'webhooks',
      'imports',
    ];
    const findings: string[] = [];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const screen of screens) {
        await page.goto(`${base}/console/${screen}`);
        await page.waitForLoadState('networkidle');
        const wide = await page.evaluate(overflowing);
        if (wide.length > 0) findings.push(`/${screen} at ${width} px scrolls sideways: ${wide.join(', ')}`);
        findings.push(...(await axeFindings(page)).map((f) => `/${screen} at ${width} px: ${f}`));
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(findings, [], 'sideways scroll, or serious and critical axe violations');
  });

  await t.test('the console’s endpoint got a signed delivery; replayed', async () => {
    await receiver.waitFor((r) => r.deliveries.length > 0, 'a delivery of order.updated', 20_000);
    assert.equal(receiver.deliveries[0].type, 'order.updated');
    assert.deepEqual(receiver.badSignatures, [], 'verified with the secret the console showed');
    await page.goto(`${base}/console/webhooks`);
    const replay = page.getByRole('button', { name: /^Replay message / }).first();
    await replay.waitFor();
    const before = receiver.deliveries.length;
    await replay.click();
    await status(/sent again/).waitFor();
    await receiver.waitFor((r) => r.deliveries.length > before, 'the replayed delivery', 20_000);
    await shoot('webhooks');
    // Deleted after asking twice.
    await page.getByRole('button', { name: `Delete endpoint ${endpointId}` }).click();
    await page.getByRole('button', { name: `Delete endpoint ${endpointId} and its deliveries` }).click();
    await status(`Endpoint ${endpointId} deleted.`).waitFor();
    assert.deepEqual((await admin.webhooks.list()).data, []);
  });

  await t.test('a read-only key: what it may not do is disabled, naming the scope', async () => {
    await page.goto(`${base}/console/keys`);
    await page.getByLabel('Label').fill('read only');
    // orders:read is the only scope ticked by default.
    await page.getByRole('button', { name: 'Create the key' }).click();
    const secret = page.locator('.secret-text');
    await secret.waitFor();
    const readOnly = (await secret.textContent())!.trim();
    assert.match(readOnly, /^sfk_/);
    await page.getByRole('button', { name: 'Copy the key' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Project id').fill('demo');
    await page.getByLabel('API key').fill(readOnly);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in again on the same address: the keys screen, which this key may not use.
    await page.getByText('This key lacks the scope').waitFor();
    assert.match((await page.locator('main').textContent())!, /keys:manage/);
    await page.goto(`${base}/console/orders?payment_status=paid`);
    const ship = page
      .getByRole('group', { name: 'Change the selected orders' })
      .getByRole('button', { name: /Mark shipped/ });
    await ship.waitFor();
    assert.equal(await ship.isDisabled(), true);
    assert.match((await ship.textContent())!, /needs orders:write/);
    await shoot('read-only');
    // The same in an order's detail.
    await page.locator('tbody tr a').first().click();
    const detailShip = page.getByRole('group', { name: 'Quick changes' }).getByRole('button', { name: /Mark shipped/ });
    await detailShip.waitFor();
    assert.equal(await detailShip.isDisabled(), true);
    assert.match((await detailShip.textContent())!, /needs orders:write/);
    // The bulk editor writes through the batch update: products:write, which this key lacks.
    await page.goto(`${base}/console/products`);
    const bulk = page.getByRole('button', { name: /Bulk edit this page/ });
    await bulk.waitFor();
    assert.equal(await bulk.isDisabled(), true);
    assert.match((await bulk.textContent())!, /needs products:write/);
  });

  await t.test('keyboard: the menu and a screen’s actions are reached with Tab, focus visible', async () => {
    await page.goto(`${base}/console/`);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    assert.ok(focused.length > 0, 'Tab reaches a control');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(outline, 'none', 'focus is visible');
  });

  console.log(`# console screenshots: ${shots}`);
  assert.deepEqual(foreign, [], 'no request to another origin');
  assert.deepEqual(problems, [], 'no console error');
  assert.ok(expected.length <= 5, `only the provoked 401, 412, 400s and 409: ${expected.join('; ')}`);
});

const pick = ({ price, sku }: { price: number; sku: string | null }) => ({ price, sku });

/** In the page: what sticks out past the window's right edge (none: no sideways scroll). */
function overflowing(): string[] {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width) return [];
  const out = [...document.querySelectorAll('body *')].filter((e) => {
    const box = e.getBoundingClientRect();
    // Inside a scrolling box (a wide table) is fine: the page itself does not move.
    return box.right > width + 0.5 && !e.parentElement?.closest('.table-wrap, .menu');
  });
  const name = (e: Element) =>
    `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} ${Math.round(e.getBoundingClientRect().right)}px`;
  return [`page ${document.documentElement.scrollWidth}px`, ...out.slice(0, 8).map(name)];
}

/** axe-core's serious and critical violations on the page as it is now. */
async function axeFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof Axe }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** The ids of every page of a list, in its order, as the API pages it (100 a page). */
async function everyId(list: (page: number) => Promise<{ data: { id: number }[] }>): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const { data } = await list(page);
    ids.push(...data.map((r) => r.id));
    if (data.length < 100) return ids;
  }
}

export type { Page };
