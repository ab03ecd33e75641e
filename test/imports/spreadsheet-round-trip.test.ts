import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { eachBackend } from '../support/each-backend.js';
import { type ImportApp, SHOP_LINE, importApp, ndjson } from './support.js';

// A real spreadsheet between an export and an import (docs/API.md, "What an import
// reports"): products.csv opened in LibreOffice Calc, headless, with the Text Import options
// of the user (Calc 7.4: detect special numbers on, US English), saved again as CSV
// in UTF-8, a few prices changed, then a dry run: its warnings must list exactly the fields
// Calc damaged, and the changed prices must be changes, not warnings. Twice: the export with
// its byte order mark opened as UTF-8, and without it opened as Windows-1252 (Calc's guess for
// a file without the mark on a Western European desktop). Skipped where soffice is missing.

const SOFFICE = spawnSync('sh', ['-c', 'command -v soffice'], { encoding: 'utf8' }).stdout.trim();
const SKIP = SOFFICE ? false : 'LibreOffice (soffice) is not installed: the spreadsheet round trip is not tried';
const run = promisify(execFile);

const T0 = 1_700_000_000;
const product = (id: number, name: string, sku: string, price: number) => ({
  type: 'product',
  id,
  handle: `p-${id}`,
  name,
  sku,
  price,
  created_at: T0 + id,
  updated_at: T0 + id,
});
/** What Calc turns into a number or a date, beside values it leaves alone. */
const PRODUCTS = [
  product(601, 'Zero padded', '00123', 1000),
  product(602, 'Thousands', '1,000', 1100),
  product(603, 'Exponent', '1E5', 1200),
  product(604, 'Fraction', '3/4', 1300),
  product(605, 'Long number', '0012345678901234567', 1400),
  product(606, 'Crème brûlée', 'CB-1', 1500),
  product(607, 'Plain', 'PLAIN-7', 1600),
];
const SPREADSHEET_DAMAGE = [
  [601, 'sku'],
  [602, 'sku'],
  [603, 'sku'],
  [604, 'sku'],
  [605, 'sku'],
];

/** Calc opens `file` with these Text Import options and saves it as UTF-8 CSV; the saved text. */
async function throughCalc(dir: string, file: string, charset: 'UTF-8' | 'Windows-1252'): Promise<string> {
  const code = charset === 'UTF-8' ? 76 : 1;
  const out = join(dir, `out-${charset}`);
  await run(
    SOFFICE,
    [
      '--headless',
      `-env:UserInstallation=file://${join(dir, 'profile')}`,
      `--infilter=CSV:44,34,${code},1,,1033,false,true`,
      '--convert-to',
      'csv:Text - txt - csv (StarCalc):44,34,76,1',
      '--outdir',
      out,
      file,
    ],
    { timeout: 180_000 },
  );
  return readFileSync(join(out, 'products.csv'), 'utf8');
}

/** The rows as a spreadsheet numbers them (the header is row 1), by product id. */
function rowsById(csv: string): Map<number, number> {
  const rows: string[][] = parse(csv, { bom: true });
  return new Map(rows.slice(1).map((r, i) => [Number(r[0]), i + 2]));
}

/** `csv` with new prices for these ids. */
function withPrices(csv: string, prices: Record<number, number>): string {
  const [header, ...rows]: string[][] = parse(csv, { bom: true });
  const at = header.indexOf('price');
  for (const r of rows) if (prices[Number(r[0])] !== undefined) r[at] = String(prices[Number(r[0])]);
  return stringify([header, ...rows]);
}

async function dryRun(shop: ImportApp, csv: string) {
  const answer = await shop.upload(csv, { type: 'text/csv', query: '?dry_run=true' });
  assert.equal(answer.status, 202, answer.text);
  const done = (await shop.finished((answer.body as { id: number }).id)).body as {
    status: string;
    errors: unknown[];
    changes: { products: { updated: number; fields: Record<string, number> } };
    warnings: { place: string; field: string; message: string }[];
    warnings_total: number;
  };
  assert.equal(done.status, 'succeeded', JSON.stringify(done.errors));
  return done;
}

eachBackend('a products CSV through LibreOffice Calc', (backend) => {
  test('a dry run warns of exactly the fields Calc damaged', { skip: SKIP }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'calc-round-trip-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const shop = await importApp(t, backend);
    const loaded = await shop.upload(ndjson(SHOP_LINE, ...PRODUCTS));
    assert.equal(
      ((await shop.finished((loaded.body as { id: number }).id)).body as { status: string }).status,
      'succeeded',
    );
    const ids = PRODUCTS.map((p) => p.id).join(',');
    const exported = async (query: string) =>
      (await shop.send('GET', `/exports/products.csv?fetch_hidden=true&ids=${ids}${query}`)).text;

    // With the byte order mark, opened as UTF-8: the names survive, the SKUs do not.
    const file = join(dir, 'products.csv');
    writeFileSync(file, await exported(''));
    const saved = await throughCalc(dir, file, 'UTF-8');
    const rows = rowsById(saved);
    const edited = await dryRun(shop, withPrices(saved, { 606: 1550, 607: 1650 }));
    assert.deepEqual(
      edited.warnings.map((w) => [w.place, w.field]).sort(),
      SPREADSHEET_DAMAGE.map(([id, field]) => [`row ${rows.get(id as number)}`, field]).sort(),
    );
    assert.equal(edited.warnings_total, SPREADSHEET_DAMAGE.length);
    assert.deepEqual(edited.changes.products.fields, { price: 2, sku: SPREADSHEET_DAMAGE.length });

    // Without the mark, opened in Windows-1252: every accented name is damaged as well.
    writeFileSync(file, await exported('&bom=false'));
    const latin = await throughCalc(dir, file, 'Windows-1252');
    const misread = await dryRun(shop, latin);
    const latinRows = rowsById(latin);
    const expected = [...SPREADSHEET_DAMAGE, [606, 'name']].map(([id, field]) => [
      `row ${latinRows.get(id as number)}`,
      field,
    ]);
    assert.deepEqual(misread.warnings.map((w) => [w.place, w.field]).sort(), expected.sort());
    const name = misread.warnings.find((w) => w.field === 'name')!;
    assert.match(name.message, /"Crème brûlée" became "CrÃ¨me brÃ»lÃ©e"/);
  });
});
