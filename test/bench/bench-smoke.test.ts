import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PG_URL } from '../support/storage.js';

// The bench in smoke mode (tiny data, fractions of a second per figure): it must run end to
// end on each backend and produce figures, ratios and exact totals, cold and warm, for inputs
// drawn from the seed it was given. Behaviour only: no figure is judged, since CI machines differ.

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');

test(
  'npm run bench -- --smoke: every case cold and warm, with ratios, exact totals and a replayable seed',
  { timeout: 300_000 },
  () => {
    const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
    try {
      const backends = PG_URL ? 'sqlite,postgres' : 'sqlite';
      const args = [join(ROOT, 'dist', 'bench', 'main.js'), '--smoke', '--backends', backends, '--out', out];
      if (PG_URL) args.push('--postgres', PG_URL);
      const run = spawnSync(process.execPath, args, {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, BENCH_SEED: '42' },
      });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stderr, /seed 42 \(BENCH_SEED=42 draws the same inputs again\)/);
      assert.match(run.stdout, /\| backend \| products \| case \| phase \| req\/s \| bare req\/s \| ratio \|/);
      // The targets table judges the figures; in a smoke run it is printed, never asserted.
      assert.match(run.stdout, /\| backend \| target \| measured \| met \|/);

      const [file] = readdirSync(out);
      const result = JSON.parse(readFileSync(join(out, file), 'utf8'));
      assert.equal(result.options.seed, 42);
      for (const backend of backends.split(',')) {
        const rows = result.results.filter((r: { backend: string }) => r.backend === backend);
        for (const phase of ['cold', 'warm'])
          assert.ok(
            rows.filter((r: { phase: string }) => r.phase === phase).length >= 9,
            `${backend}: every random-input case measured ${phase}`,
          );
        for (const r of rows) {
          assert.ok(r.api.rps > 0 && r.baseline.rps > 0, `${backend} ${r.query}: req/s of API and bare server`);
          assert.ok(r.ratio > 0, `${backend} ${r.query}: a ratio`);
          assert.equal(r.api.unexpected, 0, `${backend} ${r.query}: every answer had the expected status`);
          if (r.totals_ok !== undefined) assert.equal(r.totals_ok, true, `${backend} ${r.query}: the exact totals`);
        }
        const named = (start: string) => rows.find((r: { query: string }) => r.query.startsWith(start));
        assert.ok(named('revalidate (304)'), 'the revalidation is measured');
        assert.ok(named('product beside 4 heavy searches')?.side.rps > 0, 'single products beside heavy searches');
        assert.ok(named('reads during an import'), 'reads while an import runs');
        const imports = result.imports.filter((i: { backend: string }) => i.backend === backend);
        for (const whileServing of [false, true]) {
          const imported = imports.find((i: { while_serving: boolean }) => i.while_serving === whileServing);
          assert.ok(
            imported && imported.seconds > 0 && imported.peak_rss_mib > 0,
            `${backend}: the NDJSON import is measured ${whileServing ? 'while serving' : 'alone'}`,
          );
        }
        const generated = result.generates.find((g: { backend: string }) => g.backend === backend);
        assert.ok(generated?.seconds > 0 && generated.peak_rss_mib > 0, `${backend}: generate is timed`);
        const check = result.plan_checks.find((c: { backend: string }) => c.backend === backend);
        assert.equal(
          check?.right_after_ms.length,
          check?.paths.length,
          `${backend}: reads timed right after the import`,
        );
        assert.equal(check?.after_analyze_ms.length, check?.paths.length, `${backend}: and after ANALYZE`);
        const csv = result.csv.filter((c: { backend: string }) => c.backend === backend);
        assert.deepEqual(
          csv.map((c: { way: string }) => c.way),
          ['export', 'import http', 'import cli'],
          `${backend}: the CSV export and its imports`,
        );
        for (const c of csv) assert.ok(c.rows_per_s > 0 && c.peak_rss_mib > 0, `${backend} csv ${c.way}: measured`);
        assert.equal(csv[1].status, 'succeeded', `${backend}: the CSV import job`);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);
