import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../support/processes.js';

// `storefront export demo | head`: the reader leaving early is a normal end of the export.

const BIN = new URL('../../../bin/storefront.js', import.meta.url).pathname;

test('export into a pipe closed early ends quietly with exit 0', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sf-pipe-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = `sqlite:${join(dir, 'store.db')}`;
  // Far more than a pipe's buffer (64 KiB), so the export is still writing when head leaves.
  const made = await runCli(['generate', 'demo', '--products', '2000', '--database', db]);
  assert.equal(made.code, 0, made.stderr);
  // pipefail: the pipeline's status is the export's, not head's.
  const r = spawnSync(
    'bash',
    ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" export demo --database "${db}" | head -n 2`],
    { encoding: 'utf8' },
  );
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^\{"project":\{"id":"demo"/);
});
