import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/schema.js';
import { importDocument } from '../../src/import/import.js';
import { productVersions } from '../../src/resources/products/versions.js';

// After a bulk write SQLite's statistics come from a sample (src/db/statistics.ts) and say a
// project holds about a thousand rows, whatever it holds (at 200,000 products). A page's versions were then read
// through the index on (project_id, type, seq, id), which covers the columns asked: every
// product's entry of the project walked for each page. They are read by the change log's
// primary key now, whatever the statistics say.

test('after an import, a page of versions is read by the change log key, not by a walk of the project', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sf-plans-'));
  const storage = connect(`sqlite:${join(dir, 'shop.db')}`);
  t.after(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await migrateToLatest(storage.db);
  await importDocument(storage.db, {
    project: { id: 'shop', name: 'Shop', currency: 'EUR' },
    products: Array.from({ length: 5000 }, (_, i) => ({
      id: i + 1,
      handle: `p${i + 1}`,
      name: `Product ${i + 1}`,
      price: 100 + (i % 97),
    })),
  });
  const sqlite = storage.sqlite!;
  assert.ok(sqlite.prepare(`select count(*) as n from sqlite_stat1 where tbl = 'changes'`).get(), 'analyzed');
  // The statistics the same sampling gave a catalog of 200,000 products (sqlite_stat1 as
  // `storefront generate` left it), loaded again by the planner.
  const sampled: Record<string, string> = {
    changes_by_type_seq: '200058 1001 334 334 1',
    sqlite_autoindex_changes_1: '200058 1001 334 1',
    changes_by_seq: '200058 1001 1001',
  };
  for (const [idx, stat] of Object.entries(sampled))
    sqlite.prepare(`update sqlite_stat1 set stat = ? where tbl = 'changes' and idx = ?`).run(stat, idx);
  sqlite.exec('analyze sqlite_schema');
  const planOf = (query: CompiledQuery) =>
    sqlite
      .prepare(`explain query plan ${query.sql}`)
      .all(...(query.parameters as unknown[]))
      .map((r) => (r as { detail: string }).detail)
      .join('\n');

  const ids = Array.from({ length: 50 }, (_, i) => 1 + i * 97);
  // What the statistics make of the former statement: the trap this guards against.
  const former = storage.db
    .selectFrom('changes')
    .select(['id', 'seq'])
    .where('project_id', '=', 'shop')
    .where('type', '=', 'product')
    .where('id', 'in', ids)
    .compile();
  assert.match(planOf(former), /changes_by_type_seq/, 'the former statement walks the project');

  const queries: CompiledQuery[] = [];
  const logged = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => void queries.push(event.query),
  });
  const versions = await productVersions(logged, 'shop', ids);
  assert.equal(versions.size, 50);
  assert.ok([...versions.values()].every((v) => v > 0));
  assert.equal(queries.length, 1);
  const plan = planOf(queries[0]);
  assert.match(plan, /SEARCH c USING INDEX sqlite_autoindex_changes_1 \(project_id=\? AND type=\? AND id=\?\)/, plan);
  assert.doesNotMatch(plan, /changes_by_type_seq/, plan);
});
