import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { liveServer } from '../support/live-server.js';

// A client generated from the served document by a generator nobody here wrote
// (@hey-api/openapi-ts, issue 29), compiled with `tsc --strict`, then run against a live
// server. The program below only compiles when the document types path ids as the integers
// that records' ids are (`order_id: order.id`) and when change-feed entries are a union
// discriminated by `type` (`entry.record.price` after `entry.type === 'product'`); each
// `@ts-expect-error` line fails the compile if the document loosens that again.

const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
const TYPES = join(dirname(require.resolve('@types/node/package.json')), '..');

const PROGRAM = `import { client } from './client/client.gen.js';
import { getOrder, listChanges, listOrders, listProducts, updateOrder } from './client/sdk.gen.js';

const [baseUrl, key] = process.argv.slice(2) as [string, string];
client.setConfig({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });
const project_id = 'demo';

const products = await listProducts({ path: { project_id }, query: { perpage: 3, order: 'price_asc' } });
const prices = products.data!.data.map((p) => p.price);

const orders = await listOrders({ path: { project_id }, query: { perpage: 1, payment_status: 'paid' } });
const order = orders.data!.data[0]!;
// a record's id is what its path takes
const updated = await updateOrder({ path: { project_id, order_id: order.id }, body: { delivery_information: 'gen' } });
// @ts-expect-error a path id is an integer, not a string
await getOrder({ path: { project_id, order_id: String(order.id) } });
const missing = await getOrder({ path: { project_id, order_id: 9_999_999 } });

const feed = await listChanges({ path: { project_id }, query: { types: 'product,category', limit: 100 } });
let productPrices = 0;
let categoryNames = 0;
for (const entry of feed.data!.data) {
  if (entry.type === 'product' && entry.record) productPrices += entry.record.price >= 0 ? 1 : 0;
  if (entry.type === 'category' && entry.record) {
    categoryNames += entry.record.name.length > 0 ? 1 : 0;
    // @ts-expect-error a category's record has no price: the entry is narrowed by its type
    void entry.record.price;
  }
}
console.log(
  JSON.stringify({
    prices,
    order: { id: order.id, status: updated.response.status, delivery: updated.data?.delivery_information },
    missing: { status: missing.response.status, code: missing.error?.error.code },
    feed: { productPrices, categoryNames, hasMore: feed.data!.has_more },
  }),
);
`;

function run(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('a client generated from the served document (@hey-api/openapi-ts)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sf-generated-client-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('generates, compiles with tsc --strict, and calls the API', { timeout: 180_000 }, async (t) => {
    const server = await liveServer(t, 'sqlite', 'demo');
    const document = await (await fetch(`${server.baseUrl}/v2/openapi.json`)).text();
    writeFileSync(join(dir, 'openapi.json'), document);
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'main.ts'), PROGRAM);

    const { createClient } = await import('@hey-api/openapi-ts');
    await createClient({
      input: join(dir, 'openapi.json'),
      output: { path: join(dir, 'client'), importFileExtension: '.js' },
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent' },
    });

    const compiled = run(
      [
        TSC,
        '--strict',
        '--noEmitOnError',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--lib',
        'es2023,dom,dom.iterable',
        '--typeRoots',
        TYPES,
        '--types',
        'node',
        '--outDir',
        'out',
        'main.ts',
      ],
      dir,
    );
    assert.equal(compiled.code, 0, `tsc --strict:\n${compiled.out}`);

    // Not spawnSync: the server answers from this very process.
    const ran = await promisify(execFile)(process.execPath, [join(dir, 'out', 'main.js'), server.baseUrl, server.key], {
      cwd: dir,
      timeout: 60_000,
    });
    const result = JSON.parse(ran.stdout.trim().split('\n').at(-1)!);
    assert.equal(result.prices.length, 3);
    assert.deepEqual(
      result.prices,
      [...result.prices].sort((a: number, b: number) => a - b),
    );
    assert.equal(typeof result.order.id, 'number');
    assert.deepEqual(result.order, { id: result.order.id, status: 200, delivery: 'gen' });
    assert.deepEqual(result.missing, { status: 404, code: 'not_found' });
    assert.ok(result.feed.productPrices > 0 && result.feed.categoryNames > 0, JSON.stringify(result.feed));
  });
});
