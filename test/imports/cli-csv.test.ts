import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { freshDatabase } from '../support/pg-database.js';
import { runCli } from '../support/processes.js';
import { PG_SKIP } from '../support/storage.js';

// `storefront import <file.csv> --project <id> [--dry-run]`: a CSV names no project, so the
// command says which one; without --project it is a usage error.

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'import-csv-'));
  const project = join(dir, 'project.ndjson');
  writeFileSync(project, '{"type":"project","id":"acme","name":"Acme","currency":"USD"}\n');
  const csv = join(dir, 'products.csv');
  writeFileSync(csv, 'id,handle,name,price,currency\r\n,mug,"Mug, blue",500,USD\r\n,cup,Cup,300,\r\n');
  const bad = join(dir, 'bad.csv');
  writeFileSync(bad, 'handle,name,price\r\nok,OK,1\r\nbad,Bad,abc\r\n');
  return { dir, project, csv, bad };
}

async function csvFromTheCli(database: string) {
  const { project, csv, bad } = files();
  const db = ['--database', database];
  assert.equal((await runCli(['import', project, ...db])).code, 0);
  const usage = await runCli(['import', csv, ...db]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /names no project.*--project <id>/);
  const dry = await runCli(['import', csv, '--project', 'acme', '--dry-run', ...db]);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(
    dry.stdout,
    /^checked for acme, nothing was written \(dry run\): would import 0 categories, 2 products,/,
  );
  const real = await runCli(['import', csv, '--project', 'acme', ...db]);
  assert.equal(real.code, 0, real.stderr);
  assert.match(real.stdout, /^imported into acme: 0 categories, 2 products,/);
  const failed = await runCli(['import', bad, '--project', 'acme', ...db]);
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /1 problem, nothing was imported\n {2}row 3: price/);
  const missing = await runCli(['import', csv, '--project', 'nosuch', ...db]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /project "nosuch" does not exist/);
}

describe('storefront import file.csv --project', () => {
  test('imports products into the named project (SQLite)', async () => {
    await csvFromTheCli(`sqlite:${join(files().dir, 'store.db')}`);
  });
});

describe('storefront import file.csv --project on PostgreSQL', { skip: PG_SKIP }, () => {
  test('imports products into the named project (PostgreSQL)', async (t) => {
    await csvFromTheCli((await freshDatabase(t, 'sf_csv')).url);
  });
});
