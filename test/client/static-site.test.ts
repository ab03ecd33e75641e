import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, request } from 'node:http';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { liveServer } from '../support/live-server.js';

// examples/static-site/build.js run as its README says, against a live server: it must keep
// working as the client changes.

const script = fileURLToPath(new URL('../../../examples/static-site/build.js', import.meta.url));

test('the static-site example renders a page per visible product and a category index', async (t) => {
  const { baseUrl } = await liveServer(t, 'sqlite');
  const out = await mkdtemp(join(tmpdir(), 'static-site-'));
  t.after(() => rm(out, { recursive: true, force: true }));
  const { stdout } = await promisify(execFile)(process.execPath, [script, out], {
    env: { ...process.env, STOREFRONT_URL: baseUrl, STOREFRONT_PROJECT: 'shop' },
  });
  assert.match(stdout, /6 product pages and index\.html written/);
  assert.deepEqual((await readdir(join(out, 'products'))).sort(), [
    'alpha.html',
    'bravo.html',
    'delta.html',
    'echo.html',
    'foxtrot.html',
    'golf.html',
  ]);

  const shirt = await readFile(join(out, 'products', 'alpha.html'), 'utf8');
  assert.match(shirt, /<h1>apple<\/h1>/);
  assert.match(shirt, /€3\.00/);
  assert.match(shirt, /fruit, apples/);

  const index = await readFile(join(out, 'index.html'), 'utf8');
  const order = ['fruit', 'alpha', 'bravo', 'foxtrot', 'Tools', 'Knives', 'golf'].map((s) => index.indexOf(s));
  assert.ok(
    order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])),
    `categories nest their products in name order: ${order.join(', ')}`,
  );
  assert.doesNotMatch(index, /charlie/, 'hidden products stay out');
});

test('a second build with a cache folder and nothing changed makes only 304-answered requests', async (t) => {
  const { baseUrl } = await liveServer(t, 'sqlite');
  const statuses: number[] = [];
  // A counting proxy in front: what crosses the wire, as a CDN's log would show it.
  const proxy = createServer((req, res) => {
    const upstream = request(`${baseUrl}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      statuses.push(answer.statusCode!);
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => proxy.close(resolve)));
  const out = await mkdtemp(join(tmpdir(), 'static-site-'));
  t.after(() => rm(out, { recursive: true, force: true }));
  const build = () =>
    promisify(execFile)(process.execPath, [script, join(out, 'site')], {
      env: {
        ...process.env,
        STOREFRONT_URL: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`,
        STOREFRONT_PROJECT: 'shop',
        STOREFRONT_CACHE_DIR: join(out, 'cache'),
      },
    });

  await build();
  assert.ok(statuses.length >= 2 && statuses.every((s) => s === 200), `first build: ${statuses.join(' ')}`);
  const first = await readFile(join(out, 'site', 'index.html'), 'utf8');
  const count = statuses.length;
  statuses.length = 0;
  const { stdout } = await build();
  assert.match(stdout, /6 product pages and index\.html written/);
  assert.deepEqual(statuses, Array(count).fill(304), 'the second build transfers no bodies');
  assert.equal(await readFile(join(out, 'site', 'index.html'), 'utf8'), first);
});
