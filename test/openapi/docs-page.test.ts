import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { findChromium, launchChromium } from '../support/browser.js';
import { openStorage } from '../support/storage.js';

// /docs in a real browser: the page renders every documented operation, and everything it
// loads comes from our own server (no CDN: the reference must work offline).

const browser = findChromium();

test(
  '/docs lists every endpoint and loads nothing from another origin',
  { skip: browser.skip, timeout: 120_000 },
  async (t) => {
    const storage = await openStorage('sqlite');
    const app = await buildApp({ storage });
    t.after(async () => {
      await app.close();
      await storage.close();
    });
    const origin = (await app.listen({ host: '127.0.0.1', port: 0 })).replace('localhost', '127.0.0.1');
    const document = (await app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    const expected = Object.entries<Record<string, unknown>>(document.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();

    const chrome = await launchChromium(browser.path!);
    t.after(() => chrome.close());
    const page = await chrome.newPage();
    const foreign: string[] = [];
    const ours: string[] = [];
    const problems: string[] = [];
    // Every request passes through here: our own are let through, any other is refused and
    // recorded, so the test fails instead of quietly depending on the network.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`) || url.startsWith('data:')) {
        ours.push(`${route.request().resourceType()} ${url}`);
        return route.continue();
      }
      foreign.push(url);
      return route.abort();
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('requestfailed', (request) => {
      if (request.url().startsWith(origin)) problems.push(`failed: ${request.url()}`);
    });

    const response = await page.goto(`${origin}/docs`, { waitUntil: 'networkidle' });
    assert.equal(response?.status(), 200);
    // The browser itself is told to load nothing from elsewhere.
    const csp = String(response?.headers()['content-security-policy']);
    assert.match(csp, /default-src 'self'/);
    assert.doesNotMatch(csp, /https:|\*|upgrade-insecure-requests/);
    await page.waitForSelector('.opblock', { timeout: 30_000 });

    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map(
        (b) =>
          `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('[data-path]')?.getAttribute('data-path')}`,
      ),
    );
    assert.deepEqual(listed.sort(), expected);
    assert.ok(expected.length >= 7, `the document lists the catalogue operations: ${expected.join(', ')}`);
    assert.equal(await page.title(), 'Storefront API reference');
    assert.ok(await page.getByText('Storefront API').first().isVisible(), 'the title of the document is shown');

    assert.deepEqual(foreign, [], 'no request leaves our server');
    assert.ok(
      ours.some((r) => r.startsWith('script ')),
      `scripts come from our server: ${ours.join(', ')}`,
    );
    assert.ok(
      ours.some((r) => r.startsWith('stylesheet ')),
      `styles come from our server: ${ours.join(', ')}`,
    );
    assert.deepEqual(problems, []);
  },
);
