import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, describe, test } from 'node:test';
import { freshDatabase } from '../support/pg-database.js';
import { runCli } from '../support/processes.js';
import { PG_SKIP, backends } from '../support/storage.js';
import { shopDocument } from '../support/shop.js';

// `storefront delete`, `project list` and `project delete` as a user runs them, on a SQLite
// file and on a PostgreSQL database.

async function seeded(t: TestContext, backend: 'sqlite' | 'postgres'): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sf-cli-changes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const url =
    backend === 'postgres' ? (await freshDatabase(t, 'sf_cli_changes')).url : `sqlite:${join(dir, 'db.sqlite')}`;
  const file = join(dir, 'shop.json');
  writeFileSync(file, JSON.stringify(shopDocument()));
  const db = ['--database', url];
  const imported = await runCli(['import', file, ...db]);
  assert.equal(imported.code, 0, imported.stderr);
  return db;
}

for (const backend of backends()) {
  describe(`delete and project commands [${backend}]`, { skip: backend === 'postgres' ? PG_SKIP : false }, () => {
    test(`${backend === 'postgres' ? 'PostgreSQL' : 'SQLite'}: delete by id and handle, list, and remove a project`, async (t) => {
      const db = await seeded(t, backend);
      const list = await runCli(['project', 'list', ...db]);
      assert.equal(list.code, 0, list.stderr);
      assert.equal(list.stdout, 'shop\tShop\tEUR\t6 categories, 7 products, 5 plans, 5 users, 6 orders\n');

      const del = await runCli(['delete', 'shop', 'product', '7', 'alpha', 'no-such', '999', ...db]);
      assert.equal(del.code, 0, del.stderr);
      assert.equal(del.stdout, 'deleted 2 products from shop (not found, nothing to do: no-such, 999)\n');
      const cat = await runCli(['delete', 'shop', 'category', 'tools', ...db]);
      assert.equal(cat.stdout, 'deleted 3 categories from shop\n');
      const plan = await runCli(['delete', 'shop', 'plan', '1', ...db]);
      assert.equal(plan.stdout, 'deleted 1 plan from shop\n');
      assert.equal(
        (await runCli(['project', 'list', ...db])).stdout,
        'shop\tShop\tEUR\t3 categories, 5 products, 5 plans, 5 users, 6 orders\n',
      );

      for (const [args, message] of [
        [['delete', 'shop', 'widget', '1'], /the type must be one of category, product, plan, user, order/],
        [['delete', 'shop', 'user', 'ada'], /"ada" is not a user id \(a positive integer\)/],
        [['delete', 'shop', 'product'], /missing <id\|handle>…/],
        [['delete', 'nope', 'product', '1'], /project "nope" not found/],
      ] as const) {
        const res = await runCli([...args, ...db]);
        assert.notEqual(res.code, 0, args.join(' '));
        assert.match(res.stderr, message);
      }

      const refused = await runCli(['project', 'delete', 'shop', ...db]);
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        /not done: this removes project shop \(Shop\) and everything in it: 3 categories, 5 products, 5 plans, 5 users, 6 orders, its API keys and its change feed; run again with --yes/,
      );
      assert.equal((await runCli(['project', 'list', ...db])).stdout.split('\n')[0].split('\t')[0], 'shop');
      const removed = await runCli(['project', 'delete', 'shop', '--yes', ...db]);
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal(removed.stdout, 'deleted project shop\n');
      assert.equal((await runCli(['project', 'list', ...db])).stdout, '');
      const again = await runCli(['project', 'delete', 'shop', '--yes', ...db]);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /project "shop" not found/);
      // Nothing of it is left in any table: an import of the same id starts from nothing.
      const exported = await runCli(['export', 'shop', ...db]);
      assert.notEqual(exported.code, 0);
    });
  });
}
