import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
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
