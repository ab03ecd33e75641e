// Runs every compiled test file with node's test runner. Node 20 cannot expand globs
// itself, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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
const result = spawnSync(process.execPath, ['--test', ...reporters, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
