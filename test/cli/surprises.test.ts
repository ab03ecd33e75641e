import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

// What a newcomer's first hour tripped on (issue 29): a typo in a database path, the option
// before the command, negative numbers, "1 plans", a broken .env line, `delete … product 0`.

const BIN = new URL('../../../bin/storefront.js', import.meta.url).pathname;

function cliIn(cwd: string, args: string[]) {
  const { DATABASE_URL: _, ...env } = process.env;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'sf-surprises-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('a database in a folder that does not exist is an error naming the path; nothing is made', (t) => {
  const dir = tempDir(t);
  const missing = join(dir, 'typo', 'dir', 'x.db');
  const r = cliIn(dir, ['--database', `sqlite:${missing}`, 'project', 'list']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.ok(r.stderr.includes(join(dir, 'typo', 'dir')), r.stderr);
  assert.match(r.stderr, /does not exist/);
  assert.ok(!existsSync(join(dir, 'typo')), 'no folder was made');
  // The default database's folder (./data) is still made, so that a fresh checkout starts.
  const made = cliIn(dir, ['migrate']);
  assert.equal(made.code, 0, made.stderr);
  assert.ok(existsSync(join(dir, 'data', 'storefront.db')));
});

test('--database before the command; counts pluralized; delete of an impossible id is exit 2', (t) => {
  const dir = tempDir(t);
  const db = `sqlite:${join(dir, 'shop.db')}`;
  assert.equal(cliIn(dir, ['--database', db, 'project', 'create', 'shop', '--name', 'S', '--currency', 'EUR']).code, 0);
  writeFileSync(
    join(dir, 'shop.json'),
    JSON.stringify({
      project: { id: 'shop', name: 'S', currency: 'EUR' },
      categories: [{ id: 1, handle: 'c', name: 'C' }],
      products: [{ id: 1, handle: 'p', name: 'P', price: 1 }],
      plans: [{ id: 1, name: 'Pro' }],
    }),
  );
  const imported = cliIn(dir, [`--database=${db}`, 'import', 'shop.json']);
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /: 1 category, 1 product, 1 plan, 0 users, 0 orders \(/);
  const list = cliIn(dir, ['--database', db, 'project', 'list']);
  assert.equal(list.code, 0, list.stderr);
  assert.equal(list.stdout, 'shop\tS\tEUR\t1 category, 1 product, 1 plan, 0 users, 0 orders\n');
  for (const type of ['product', 'order', 'category']) {
    const r = cliIn(dir, ['--database', db, 'delete', 'shop', type, '0']);
    assert.equal(r.code, 2, `${type} 0: ${r.stderr}`);
    assert.match(r.stderr, /"0" is not a/);
  }
  const deleted = cliIn(dir, ['--database', db, 'delete', 'shop', 'product', '1']);
  assert.equal(deleted.stdout, 'deleted 1 product from shop\n');
});

test('a negative number is one clear line, exit 2', (t) => {
  const dir = tempDir(t);
  for (const args of [
    ['key', 'revoke', '-1'],
    ['delete', 'shop', 'order', '-5'],
    ['generate', 'shop', '--products', '-5'],
    ['webhook', 'roll-secret', '3', '--overlap', '-1h'],
  ]) {
    const r = cliIn(dir, args);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /is negative/, r.stderr);
    assert.doesNotMatch(r.stderr, /ambiguous|Unknown option/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test('a broken .env line is a warning naming the file and the line; the good lines still count', (t) => {
  const dir = tempDir(t);
  writeFileSync(
    join(dir, '.env'),
    '# the shop\nDATABASE_URL=sqlite:./from-dotenv.db\nPORT 3000\nNOTE="two\nlines"\n=oops\n',
  );
  const r = cliIn(dir, ['migrate']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    r.stderr.split('\n').filter((l) => l.includes('.env')),
    ['storefront: .env line 3: not NAME=value, ignored', 'storefront: .env line 6: not NAME=value, ignored'],
  );
  assert.ok(existsSync(join(dir, 'from-dotenv.db')));
});
