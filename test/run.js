// Runs every compiled test file with node's test runner. Node 20 cannot expand globs
// itself, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'support' ? [] : find(path);
    return name.endsWith('.test.js') && hasSource(path) ? [path] : [];
  });
}

// tsc never deletes: a test moved or removed in test/ leaves its old compiled copy behind
// in dist/test, which must not run.
function hasSource(compiled) {
  return existsSync(compiled.replace(/^dist[\\/]/, '').replace(/\.js$/, '.ts'));
}

const only = process.argv.slice(2);
const files = find('dist/test').filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
if (!process.env.TEST_DATABASE_URL) console.log('# PostgreSQL tests will be skipped: TEST_DATABASE_URL is not set');
// CI asks for a count of the PostgreSQL tests beside the usual output (.ci/run prints it).
const summary = process.env.TEST_BACKEND_SUMMARY
  ? [
      '--test-reporter=./test/backend-count-reporter.js',
      `--test-reporter-destination=${process.env.TEST_BACKEND_SUMMARY}`,
    ]
  : [];
const reporters = [
  '--test-reporter=spec',
  ...(summary.length ? ['--test-reporter-destination=stdout', ...summary] : []),
];
// Node runs one file at a time on a two-core machine (its default is the cores less one), yet
// most of a test's time is spent waiting on servers, sockets and timers: two files at a time
// keep both cores busy. Every test has its own storage (a PostgreSQL schema or a SQLite file)
// and its own ports, so files never meet. TEST_CONCURRENCY overrides.
const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.max(2, availableParallelism());
const result = spawnSync(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...reporters, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
