import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

// A `.env` in the working directory is read as every command starts; the environment wins.

const BIN = new URL('../../../bin/storefront.js', import.meta.url).pathname;

function cliIn(cwd: string, args: string[], env: Record<string, string> = {}) {
  const { DATABASE_URL: _, ...base } = process.env;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...base, ...env }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('.env sets what the environment leaves unset', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sf-dotenv-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, '.env'), '# the shop\nDATABASE_URL="sqlite:./from-dotenv.db"\n');
  const r = cliIn(dir, ['project', 'create', 'shop', '--name', 'Shop', '--currency', 'EUR']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(dir, 'from-dotenv.db')));
  assert.ok(!existsSync(join(dir, 'data')), 'the default database was not used');
  // The same project again in the same database: .env is read on every run.
  assert.match(cliIn(dir, ['project', 'create', 'shop', '--name', 'S', '--currency', 'EUR']).stderr, /already exists/);
});

test('the environment wins over .env', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sf-dotenv-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, '.env'), 'DATABASE_URL=sqlite:./from-dotenv.db\n');
  const r = cliIn(dir, ['migrate'], { DATABASE_URL: 'sqlite:./from-environment.db' });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(dir, 'from-environment.db')));
  assert.ok(!existsSync(join(dir, 'from-dotenv.db')));
});

test('a .env that cannot be read is one line on stderr, exit 1, nothing written', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sf-dotenv-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, '.env'));
  const r = cliIn(dir, ['migrate']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'storefront: cannot read .env (EISDIR)\n');
  assert.ok(!existsSync(join(dir, 'data')));
});
