import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, request } from 'node:http';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '../../src/client/index.js';
import { importDocument } from '../../src/import/import.js';
import { liveServer } from '../support/live-server.js';
import { SHOP, shopDocument } from '../support/shop.js';

// examples/static-site/build.js run as its README says, against a live server: a full build,
// then incremental ones that must write exactly what a full build would.

const script = fileURLToPath(new URL('../../../examples/static-site/build.js', import.meta.url));

async function folder(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'static-site-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function builder(baseUrl: string, extra: Record<string, string> = {}) {
  return async (out: string, ...args: string[]) =>
    (
      await promisify(execFile)(process.execPath, [script, out, ...args], {
        env: { ...process.env, STOREFRONT_URL: baseUrl, STOREFRONT_PROJECT: SHOP, ...extra },
      })
    ).stdout;
}

/** Every file under `dir` with its bytes, by relative path. */
async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.set(relative(dir, path), await readFile(path, 'utf8'));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

test('the first build renders a page per visible product and per category, an index and a sitemap', async (t) => {
  const { baseUrl } = await liveServer(t, 'sqlite');
  const out = join(await folder(t), 'site');
  const stdout = await builder(baseUrl)(out);
  assert.match(stdout, /^full build: 6 products, 15 pages written to /);
  const site = await files(out);
  assert.deepEqual(
    [...site.keys()],
    [
      'categories/apples.html',
      'categories/berries.html',
      'categories/fruit.html',
      'categories/knives.html',
      'categories/small-knives.html',
      'categories/tools.html',
      'index.html',
      'products/alpha.html',
      'products/bravo.html',
      'products/delta.html',
      'products/echo.html',
      'products/foxtrot.html',
      'products/golf.html',
      'search.html',
      'sitemap.xml',
    ],
    'the hidden product (charlie) has no page',
  );

  const apple = site.get('products/alpha.html')!;
  assert.match(apple, /<h1>apple<\/h1>/);
  assert.match(apple, /€3\.00/);
  assert.match(
    apple,
    /<a href="\.\.\/categories\/apples\.html">apples<\/a> · <a href="\.\.\/categories\/fruit\.html">fruit<\/a>/,
  );
  const fruit = site.get('categories/fruit.html')!;
  const order = ['apples', 'Berries', 'alpha', 'bravo', 'foxtrot'].map((s) => fruit.indexOf(s));
  assert.ok(
    order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])),
    `subcategories, then products, each by name: ${order.join(', ')}`,
  );
  const search = site.get('search.html')!;
  assert.match(search, /<script src="http:\/\/127\.0\.0\.1:\d+\/toolkit\.js" data-project="shop"><\/script>/);
  assert.match(search, /"1":"fruit"/, 'the category names come from the mirror');
  const index = site.get('index.html')!;
  assert.match(index, /Other products.*delta.*echo/s, 'products in no category are listed on the index');
  assert.doesNotMatch(index + fruit, /charlie|cherry/, 'hidden products stay out');
  assert.match(
    site.get('sitemap.xml')!,
    /<url><loc>https:\/\/shop\.example\/products\/golf\.html<\/loc><lastmod>1970-01-01T00:08:20\.000Z<\/lastmod><\/url>/,
  );
});

test('after a price change, a hidden and a deleted product, an incremental build equals a full one', async (t) => {
  const { baseUrl, key, storage } = await liveServer(t, 'sqlite');
  const dir = await folder(t);
  const build = builder(baseUrl);
  await build(join(dir, 'site'));
  const before = await files(join(dir, 'site'));

  // Nothing changed: nothing but the sitemap and the search page are written.
  assert.match(await build(join(dir, 'site')), /^0 changes: 6 products, 2 pages written/);

  const client = createClient({ baseUrl, projectId: SHOP, apiKey: key });
  await client.products.update('bravo', { price: 1234 }); // in fruit
  const golf = shopDocument().products.find((p) => p.handle === 'golf')!;
  await importDocument(storage.db, {
    project: { id: SHOP, name: 'Shop', currency: 'EUR' },
    products: [
      { ...golf, show_in_store: false }, // in knives
      { id: 5, deleted: true }, // echo, in no category: on the index
    ],
  });
  const stdout = await build(join(dir, 'site'));
  // bravo's page; the fruit, knives and index pages; the sitemap and the search page.
  assert.match(stdout, /^3 changes: 4 products, 6 pages written/);

  await build(join(dir, 'full'), '--full');
  const incremental = await files(join(dir, 'site'));
  const full = await files(join(dir, 'full'));
  assert.deepEqual([...incremental.keys()], [...full.keys()]);
  for (const [path, text] of full) assert.equal(incremental.get(path), text, `${path} as a full build writes it`);
  assert.ok(!incremental.has('products/golf.html') && !incremental.has('products/echo.html'));
  assert.match(incremental.get('products/bravo.html')!, /€12\.34/);
  assert.equal(incremental.get('products/alpha.html'), before.get('products/alpha.html'));

  // Categories and handles: a category renamed and moved, one deleted with its subtree (a
  // product loses it), a product under a new handle. Again equal to a full build.
  const bravo = shopDocument().products.find((p) => p.handle === 'bravo')!;
  await importDocument(storage.db, {
    project: { id: SHOP, name: 'Shop', currency: 'EUR' },
    categories: [
      { id: 3, handle: 'green-apples', name: 'Green apples', parent_id: 4 },
      { id: 5, deleted: true },
    ],
    products: [{ ...bravo, handle: 'banana', price: 1234 }],
  });
  assert.match(await build(join(dir, 'site')), /^\d+ changes: 4 products, \d+ pages written/);
  await build(join(dir, 'full'), '--full');
  const again = await files(join(dir, 'site'));
  const fullAgain = await files(join(dir, 'full'));
  assert.deepEqual([...again.keys()], [...fullAgain.keys()]);
  for (const [path, text] of fullAgain) assert.equal(again.get(path), text, `${path} as a full build writes it`);
  assert.ok(
    !again.has('products/bravo.html') && !again.has('categories/apples.html') && !again.has('categories/knives.html'),
  );
  assert.ok(again.has('products/banana.html') && again.has('categories/green-apples.html'));
});

test('the state file sits beside the site, and a site folder removed by hand is built again in full', async (t) => {
  const { baseUrl } = await liveServer(t, 'sqlite');
  const dir = await folder(t);
  const build = builder(baseUrl);
  await build(join(dir, 'site'));
  assert.ok((await stat(join(dir, 'site.state.json'))).size > 0);
  await rm(join(dir, 'site'), { recursive: true });
  assert.match(await build(join(dir, 'site')), /^full build: 6 products, 15 pages written/);
});

test('a rebuild with nothing changed makes one request and gets no record; with a cache folder, the next is a 304', async (t) => {
  const { baseUrl } = await liveServer(t, 'sqlite');
  const answers: { path: string; status: number; bytes: number }[] = [];
  // A counting proxy in front: what crosses the wire, as a CDN's log would show it.
  const proxy = createServer((req, res) => {
    const upstream = request(`${baseUrl}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      let bytes = 0;
      answer.on('data', (chunk: Buffer) => (bytes += chunk.length));
      answer.on('end', () =>
        answers.push({ path: new URL(req.url!, baseUrl).pathname, status: answer.statusCode!, bytes }),
      );
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => proxy.close(resolve)));
  const dir = await folder(t);
  const build = builder(`http://127.0.0.1:${(proxy.address() as { port: number }).port}`, {
    STOREFRONT_CACHE_DIR: join(dir, 'cache'),
  });

  await build(join(dir, 'site'));
  assert.ok(answers.length >= 1 && answers.every((a) => a.status === 200 && a.path.endsWith('/changes/')));
  answers.length = 0;
  await build(join(dir, 'site'));
  assert.equal(answers.length, 1);
  assert.equal(answers[0].status, 200);
  assert.ok(answers[0].bytes < 200, `an empty page of the feed: ${answers[0].bytes} bytes`);
  answers.length = 0;
  await build(join(dir, 'site'));
  assert.deepEqual(
    answers.map((a) => a.status),
    [304],
    'asked again with the same cursor: the cached answer is revalidated',
  );
});
