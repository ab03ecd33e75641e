import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { freshDatabase } from '../support/pg-database.js';
import { runCli } from '../support/processes.js';
import { PG_SKIP } from '../support/storage.js';

// `storefront import <file> --dry-run`: every check of an import, nothing written.

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'import-dry-run-'));
  const good = join(dir, 'good.ndjson');
  writeFileSync(
    good,
    '{"type":"project","id":"acme","name":"Acme","currency":"USD"}\n{"type":"product","id":1,"handle":"a","name":"A","price":5}\n',
  );
  const bad = join(dir, 'bad.ndjson');
  writeFileSync(
    bad,
    '{"type":"project","id":"acme","name":"Acme","currency":"USD"}\n{"type":"product","id":2,"handle":"b","name":"B","price":"x"}\n',
  );
  return { dir, good, bad };
}

async function dryRunWritesNothing(database: string) {
  const { good, bad } = files();
  const checked = await runCli(['import', good, '--dry-run', '--database', database]);
  assert.equal(checked.code, 0, checked.stderr);
  assert.match(
    checked.stdout,
    /^checked for acme, nothing was written \(dry run\): would import 0 categories, 1 product,/,
  );
  const listed = await runCli(['project', 'list', '--database', database]);
  assert.doesNotMatch(listed.stdout, /acme/, 'the dry run created no project');
  const failed = await runCli(['import', bad, '--dry-run', '--database', database]);
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /1 problem, nothing was written \(dry run\)\n {2}line 2: price/);
  const real = await runCli(['import', good, '--database', database]);
  assert.match(real.stdout, /^imported into acme: 0 categories, 1 product,/);
}

describe('storefront import --dry-run', () => {
  test('checks and writes nothing (SQLite)', async () => {
    await dryRunWritesNothing(`sqlite:${join(files().dir, 'store.db')}`);
  });
});

describe('storefront import --dry-run on PostgreSQL', { skip: PG_SKIP }, () => {
  test('checks and writes nothing (PostgreSQL)', async (t) => {
    await dryRunWritesNothing((await freshDatabase(t, 'sf_dry')).url);
  });
});
