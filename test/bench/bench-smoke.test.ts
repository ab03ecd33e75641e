import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PG_URL } from '../support/storage.js';

// The bench in smoke mode (tiny data, fractions of a second per figure): it must run end to
// end on each backend and produce figures, ratios and exact totals. Behaviour only: no
// figure is judged, since CI machines differ.

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');

test('npm run bench -- --smoke produces figures, ratios and exact totals', { timeout: 300_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  try {
    const backends = PG_URL ? 'sqlite,postgres' : 'sqlite';
    const args = [join(ROOT, 'dist', 'bench', 'main.js'), '--smoke', '--backends', backends, '--out', out];
    if (PG_URL) args.push('--postgres', PG_URL);
    const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\| backend \| products \| query \| req\/s \| baseline req\/s \| ratio \|/);
    // The targets table judges the figures; in a smoke run it is printed, never asserted.
    assert.match(run.stdout, /\| backend \| target \| measured \| met \|/);

    const [file] = readdirSync(out);
    const result = JSON.parse(readFileSync(join(out, file), 'utf8'));
    for (const backend of backends.split(',')) {
      const rows = result.results.filter(
        (r: { backend: string; missing?: string }) => r.backend === backend && !r.missing,
      );
      assert.ok(rows.length >= 9, `${backend}: a figure for every product query`);
      for (const r of rows) {
        assert.ok(r.api.rps > 0 && r.baseline.rps > 0, `${backend} ${r.query}: req/s of API and baseline`);
        assert.ok(r.ratio > 0, `${backend} ${r.query}: a ratio`);
        assert.equal(r.api.unexpected, 0, `${backend} ${r.query}: every answer had the expected status`);
        if (r.total !== undefined) assert.equal(r.total_ok, true, `${backend} ${r.query}: the exact total`);
      }
      assert.ok(
        rows.some((r: { query: string }) => r.query === 'revalidate (304)'),
        'the revalidation is measured',
      );
      const imported = result.imports.find((i: { backend: string }) => i.backend === backend);
      assert.ok(
        imported && imported.seconds > 0 && imported.peak_rss_mib > 0,
        `${backend}: the NDJSON import is measured`,
      );
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
