import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importDocument } from '../../src/import/import.js';
import { FORMULA_NAME, seedMany } from '../exports/support.js';
import { eachBackend } from '../support/each-backend.js';
import { category } from '../support/records.js';
import { bearer, call } from '../support/request.js';
import { SHOP } from '../support/shop.js';
import { type ImportApp, importApp, stateOf } from './support.js';

// The products CSV import (docs/API.md, "CSV import"): an export imported again gives the
// same records (into another project and into its own), the formula prefix comes off again,
// errors by row (the header is row 1), broken CSV failed with its row and nothing written,
// the header checked before the job is queued.

type Import = {
  id: number;
  status: string;
  format: string;
  dry_run: boolean;
  counts: Record<string, { upserted: number; deleted: number }>;
  changes: Record<string, { unchanged: number }>;
  errors: { place: string; message: string }[];
  errors_total: number;
};

const COPY = 'copy';

async function exportCsv(shop: ImportApp, project: string, key: string): Promise<string> {
  const answer = await call(shop.app, 'GET', `/v2/projects/${project}/exports/products.csv?fetch_hidden=true`, {
    headers: bearer(key),
  });
  assert.equal(answer.status, 200, answer.text);
  return answer.text;
}

/** Uploads a CSV into `project` and waits until its import ended. */
async function importCsv(shop: ImportApp, project: string, key: string, csv: string, query = ''): Promise<Import> {
  const answer = await call(shop.app, 'POST', `/v2/projects/${project}/imports/${query}`, {
    raw: csv,
    headers: { ...bearer(key), 'content-type': 'text/csv' },
  });
  assert.equal(answer.status, 202, answer.text);
  assert.equal((answer.body as Import).format, 'csv');
  const id = (answer.body as Import).id;
  for (let i = 0; i < 400; i++) {
    const got = await call(shop.app, 'GET', `/v2/projects/${project}/imports/${id}`, { headers: bearer(key) });
    const body = got.body as Import;
    if (!['queued', 'running'].includes(body.status) && shop.app.imports.runner.live(id) === undefined) return body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`import ${id} did not end`);
}

/** Imports `csv`, which fails with these errors (place, message), and nothing is written. */
async function failsByRow(shop: ImportApp, csv: string, errors: [string, RegExp][]): Promise<void> {
  const before = await stateOf(shop.storage);
  const done = await importCsv(shop, SHOP, shop.shopKey, csv);
  assert.equal(done.status, 'failed');
  assert.deepEqual(
    done.errors.map((e) => e.place),
    errors.map(([place]) => place),
  );
  for (const [i, [, message]] of errors.entries()) assert.match(done.errors[i].message, message);
  assert.deepEqual(await stateOf(shop.storage), before);
}

const HEADER = 'id,handle,name,price';
const rows = (...lines: string[]) => [HEADER, ...lines].join('\r\n') + '\r\n';

eachBackend('products CSV import', (backend) => {
  test('an exported products.csv imported into another project and into its own gives the same records', async (t) => {
    const shop = await importApp(t, backend);
    await seedMany(shop.storage);
    const cats = [1, 2, 3, 4, 5, 6].map((id) => category(id, `c-${id}`, `C ${id}`, null));
    await importDocument(shop.storage.db, { project: { id: COPY, name: 'Copy', currency: 'EUR' }, categories: cats });
    const copyKey = await shop.key(COPY);
    const exported = await exportCsv(shop, SHOP, shop.shopKey);
    assert.ok(exported.includes(`'${FORMULA_NAME.replace(/"/g, '""')}`), 'the export defused the formula');

    const into = await importCsv(shop, COPY, copyKey, exported);
    assert.equal(into.status, 'succeeded', JSON.stringify(into.errors));
    assert.equal(await exportCsv(shop, COPY, copyKey), exported);
    // The formula prefix is gone again in the stored record, and a negative number kept.
    const formula = await call(shop.app, 'GET', `/v2/projects/${COPY}/products/199`, { headers: bearer(copyKey) });
    const stored = formula.body as { name: string; sku: string; custom_sort: number };
    assert.equal(stored.name, FORMULA_NAME);
    assert.equal(stored.sku, '+1-555');
    assert.equal(stored.custom_sort, -7);

    const again = await importCsv(shop, SHOP, shop.shopKey, exported);
    assert.equal(again.status, 'succeeded', JSON.stringify(again.errors));
    // Nothing changed: nothing written, every product counted unchanged.
    assert.equal(again.counts.products.upserted, 0);
    assert.equal(again.changes.products.unchanged, exported.trim().split(/\r\n(?=\d)/).length - 1);
    assert.equal(await exportCsv(shop, SHOP, shop.shopKey), exported);
  });

  test('images whose url or alt hold `;`, `|` or `\\` come back the same, escaped with `\\` in the cell', async (t) => {
    const shop = await importApp(t, backend);
    const images = [
      { url: 'https://img.example/a;v=2.jpg', alt: 'Front; left | right \\ up' },
      { url: 'https://img.example/b|c\\d.jpg', alt: '' },
      { url: 'https://img.example/e.jpg', alt: ';|\\' },
    ];
    const cell =
      'https://img.example/a\\;v=2.jpg|Front\\; left \\| right \\\\ up;https://img.example/b\\|c\\\\d.jpg;https://img.example/e.jpg|\\;\\|\\\\';
    const csv = ['handle,name,price,images', `escaped,Escaped,100,"${cell}"`].join('\r\n');
    const done = await importCsv(shop, SHOP, shop.shopKey, csv);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.errors));
    const list = await shop.send('GET', '/products/?search=Escaped&fetch_hidden=true');
    const [stored] = (list.body as { data: { id: number; images: unknown }[] }).data;
    assert.deepEqual(stored.images, images);
    // The export writes the same cell, and importing it again keeps the images.
    const exported = await exportCsv(shop, SHOP, shop.shopKey);
    assert.ok(exported.includes(cell), exported);
    const again = await importCsv(shop, SHOP, shop.shopKey, exported);
    assert.equal(again.status, 'succeeded', JSON.stringify(again.errors));
    const reread = await shop.send('GET', `/products/${stored.id}`);
    assert.deepEqual((reread.body as { images: unknown }).images, images);
  });

  test('an images cell that would need a guess fails its row: a `\\` escaping nothing, a second `|`', async (t) => {
    const shop = await importApp(t, backend);
    const csv = [
      'handle,name,price,images',
      'fine,Fine,100,https://img.example/a.jpg|A',
      'lone,Lone,100,https://img.example\\a.jpg',
      'trailing,Trailing,100,https://img.example/a.jpg|A\\',
      'pipes,Pipes,100,https://img.example/a.jpg|A;https://img.example/b.jpg|B|C',
    ].join('\n');
    await failsByRow(shop, csv, [
      ['row 3', /^images has a `\\` at character 20 that escapes nothing/],
      ['row 4', /^images has a `\\` at character 28 /],
      ['row 5', /^images has more than one `\|` in image 2/],
    ]);
  });

  test('an unclosed quote at row 9 fails the import with its row, and nothing is written', async (t) => {
    const shop = await importApp(t, backend);
    const before = await stateOf(shop.storage);
    const good = Array.from({ length: 7 }, (_, i) => `,fine-${i},Fine ${i},100`);
    const csv = rows(...good, ',broken,"never closed,100', ',after,After,100');
    const done = await importCsv(shop, SHOP, shop.shopKey, csv);
    assert.equal(done.status, 'failed');
    assert.equal(done.errors[0].place, 'row 9', JSON.stringify(done.errors));
    assert.match(done.errors[0].message, /never closed/);
    assert.deepEqual(await stateOf(shop.storage), before);
    assert.deepEqual(shop.spooled(), []);
  });

  test('errors by row: a bad price in row 3, cells that do not fit the header, another currency', async (t) => {
    const shop = await importApp(t, backend);
    const csv = [
      'handle,name,price,currency',
      'ok-one,OK,100,EUR',
      'bad-price,Bad,abc,EUR',
      'short,Short',
      'dollars,Dollars,100,USD',
    ].join('\n');
    await failsByRow(shop, csv, [
      ['row 3', /^price /],
      ['row 4', /has 2 cells, but the header names 4 columns/],
      ['row 5', /^currency is "USD"/],
    ]);
  });

  test('an empty id is a new product; a BOM, quoted cells, CRLF and blank rows are read', async (t) => {
    const shop = await importApp(t, backend);
    const csv = '\ufeff' + rows(',"new-one","New, ""quoted""\r\nline",500', ',,,', '');
    const done = await importCsv(shop, SHOP, shop.shopKey, csv);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.errors));
    assert.deepEqual(done.counts.products, { upserted: 1, deleted: 0 });
    const list = await shop.send('GET', '/products/?search=quoted&fetch_hidden=true');
    const [created] = (list.body as { data: { id: number; handle: string; name: string }[] }).data;
    assert.equal(created.handle, 'new-one');
    assert.equal(created.name, 'New, "quoted"\r\nline');
    assert.ok(created.id > 0);
  });

  test('a dry run checks the CSV and writes nothing', async (t) => {
    const shop = await importApp(t, backend);
    const before = await stateOf(shop.storage);
    const done = await importCsv(shop, SHOP, shop.shopKey, rows(',dry,Dry,100'), '?dry_run=true');
    assert.equal(done.status, 'succeeded');
    assert.equal(done.dry_run, true);
    assert.deepEqual(done.counts.products, { upserted: 1, deleted: 0 });
    assert.deepEqual(await stateOf(shop.storage), before);
  });

  test('a header naming unknown columns, or lacking a required one, is a 400 before any job', async (t) => {
    const shop = await importApp(t, backend);
    const unknown = await shop.upload('handle,name,price,colour,size\r\nx,X,1,red,L\r\n', { type: 'text/csv' });
    assert.equal(unknown.status, 400, unknown.text);
    const error = (unknown.body as { error: { message: string; details: { field: string }[] } }).error;
    assert.match(error.message, /colour, size/);
    assert.deepEqual(
      error.details.map((d) => d.field),
      ['colour', 'size'],
    );
    // A row finds its product by id or handle: a file with neither cannot say which.
    const neither = await shop.upload('name,price\r\nX,1\r\n', { type: 'text/csv' });
    assert.equal(neither.status, 400);
    assert.match(neither.text, /or handle is a required column/);
    // Whole records need what every product needs.
    const missing = await shop.upload('handle,name\r\nx,X\r\n', { type: 'text/csv', query: '?mode=replace' });
    assert.equal(missing.status, 400);
    assert.match(missing.text, /price/);
    const list = await shop.send('GET', '/imports/');
    assert.deepEqual((list.body as { data: unknown[] }).data, []);
    assert.deepEqual(shop.spooled(), []);
  });

  test('another media type is still 415', async (t) => {
    const shop = await importApp(t, backend);
    const answer = await shop.upload('handle,name,price\r\nx,X,1\r\n', { type: 'text/plain' });
    assert.equal(answer.status, 415);
    assert.match(answer.text, /text\/csv/);
  });
});
