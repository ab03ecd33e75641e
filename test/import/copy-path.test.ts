import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Storage } from '../../src/db/connect.js';
import { copyText } from '../../src/db/copy-rows.js';
import { importFile } from '../../src/import/import.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { eachBackend } from '../support/each-backend.js';
import { importFailure } from '../support/import-failure.js';
import { tempFiles } from '../support/import-files.js';
import { PG_SKIP, openStorage } from '../support/storage.js';
import { suite } from '../support/suite.js';

// PostgreSQL writes an import's batches through COPY (src/db/copy-rows.ts): a staging table
// and one INSERT … SELECT … ON CONFLICT for records, COPY straight into the table for their
// parts. SQLite writes the same batches as multi-row statements, the way both did before.
// The same files, imported on both, must leave the same rows, the same change-feed entries
// and the same webhook messages: text that COPY's format escapes (backslash, tab, newline,
// `\N`), nulls, replaced records, deletions, several batches (500 records each).

const { file } = tempFiles('storefront-copy-');
const ndjson = (...lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const PROJECT = 'copy';
const projectLine = { type: 'project', id: PROJECT, name: 'Copy shop', currency: 'EUR' };
const TRICKY = [
  'back\\slash',
  'tab\there',
  'new\nline',
  'cr\rhere',
  '\\N',
  '\\.',
  "quote\"s 'both'",
  '日本 🍎',
  '',
  ' ',
];
const T0 = 1_700_000_000;

function product(id: number, round: number) {
  const text = TRICKY[id % TRICKY.length];
  return {
    type: 'product',
    id,
    handle: `p-${id}`,
    name: `Product ${id} ${text}`.trim() || `Product ${id}`,
    description: round === 0 ? text : `${text} again`,
    ...(id % 3 === 0 ? {} : { sku: `SKU\t${id}` }),
    price: 100 + id * 7 + round,
    category_ids: id % 4 === 0 ? [] : [1 + (id % 3), 1 + ((id + round) % 3)],
    images: id % 5 === 0 ? [{ url: `https://img.example/${id}\\a.png`, alt: `alt\t${id}` }] : [],
    created_at: T0 + id,
    updated_at: T0 + id + round,
  };
}

const categories = [1, 2, 3].map((id) => ({
  type: 'category',
  id,
  handle: `c-${id}`,
  name: `Cat\\${id}`,
  created_at: T0,
  updated_at: T0,
}));

/** A new project of 1,200 products, then half of them replaced, 300 new, 40 deleted. */
const FIRST = ndjson(projectLine, ...categories, ...Array.from({ length: 1200 }, (_, i) => product(i + 1, 0)));
const SECOND = ndjson(
  projectLine,
  ...Array.from({ length: 600 }, (_, i) => product(2 * i + 1, 1)),
  ...Array.from({ length: 40 }, (_, i) => ({ type: 'product', id: 2 * i + 2, deleted: true })),
  ...Array.from({ length: 300 }, (_, i) => product(1201 + i, 0)),
);

/** Everything an import writes, in one order; webhook messages without their ids and times. */
async function written(storage: Storage) {
  const db = storage.db;
  const all = async (table: 'products' | 'product_categories' | 'categories', order: string[]) => {
    let q = db.selectFrom(table).selectAll();
    for (const o of order) q = q.orderBy(o as never);
    return (await q.execute()).map((r) => ({ ...r, ...importTime(r) }));
  };
  const messages = await db.selectFrom('webhook_messages').select(['type', 'payload']).execute();
  return {
    products: await all('products', ['id']),
    links: await all('product_categories', ['product_id', 'category_id']),
    categories: await all('categories', ['id']),
    changes: await db
      .selectFrom('changes')
      .select(['type', 'id', 'seq', 'action'])
      .orderBy('seq')
      .orderBy('type')
      .orderBy('id')
      .execute(),
    // Messages of one write share their time: compared as a set.
    messages: messages.map((m) => JSON.stringify({ type: m.type, data: withoutTimes(JSON.parse(m.payload)) })).sort(),
  };
}

/** A record the import changed has the import's time as updated_at, which differs between runs. */
const STARTED = Math.floor(Date.now() / 1000);
function importTime(row: object): object {
  const at = (row as { updated_at?: number }).updated_at;
  return at !== undefined && Number(at) >= STARTED ? { updated_at: 'the import' } : {};
}

function withoutTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimes);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !/(^id$|_at$|^timestamp$)/.test(k))
      .map(([k, v]) => [k, k === 'cursor' ? positionOf(v) : withoutTimes(v)]),
  );
}

/** A change-feed cursor's position without the project's incarnation (random per creation). */
function positionOf(cursor: unknown): string {
  return Buffer.from(String(cursor), 'base64url').toString().split('~')[0];
}

async function importBoth(storage: Storage): Promise<void> {
  await importFile(storage.db, file('first.ndjson', FIRST));
  await createEndpoint(storage, PROJECT, 'http://127.0.0.1:9/hooks', undefined, 1);
  await importFile(storage.db, file('second.ndjson', SECOND));
}

suite('imports over COPY write what the statements wrote', { skip: PG_SKIP }, () => {
  test('the same rows, change-feed entries and webhook messages on PostgreSQL as on SQLite', async (t) => {
    const sqlite = await openStorage('sqlite');
    const postgres = await openStorage('postgres');
    t.after(() => Promise.all([sqlite.close(), postgres.close()]));
    await importBoth(sqlite);
    await importBoth(postgres);
    const [a, b] = [await written(sqlite), await written(postgres)];
    assert.equal(a.products.length, 1460);
    assert.ok(a.messages.length > 0, 'the imports enqueued webhook messages');
    assert.ok(a.products.some((p) => String(p.description).includes('\t')));
    assert.deepEqual(b.products, a.products);
    assert.deepEqual(b.links, a.links);
    assert.deepEqual(b.categories, a.categories);
    assert.deepEqual(b.changes, a.changes);
    assert.deepEqual(b.messages, a.messages);
  });
});

eachBackend('an import that fails after its batches were written', (backend) => {
  test('leaves the catalog, the change feed and the outbox as they were', async (t) => {
    const storage = await openStorage(backend);
    t.after(() => storage.close());
    await importFile(storage.db, file(`ok-${backend}.ndjson`, FIRST));
    await createEndpoint(storage, PROJECT, 'http://127.0.0.1:9/hooks', undefined, 1);
    const before = await written(storage);
    // Three batches are copied before the bad record, the last line, is read.
    const bad = SECOND + JSON.stringify({ ...product(5000, 0), price: -1 }) + '\n';
    const failure = await importFailure(importFile(storage.db, file(`bad-${backend}.ndjson`, bad)));
    assert.match(failure.problems[0], /^line \d+: price/);
    assert.deepEqual(await written(storage), before);
  });
});

test("COPY's text format: tabs, newlines, backslashes escaped, null as \\N", () => {
  const text = copyText(['a', 'b', 'c'], [{ a: 'x\ty\\z\r\n', b: null, c: 3 }]);
  assert.equal(text, 'x\\ty\\\\z\\r\\n\t\\N\t3\n');
});
