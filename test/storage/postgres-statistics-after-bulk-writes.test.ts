import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importDocument } from '../../src/import/import.js';
import { PG_SKIP, PG_URL } from '../support/storage.js';
import { suite } from '../support/suite.js';

// After an import (or generate) PostgreSQL knows the new sizes (ANALYZE) and the new pages are
// marked all-visible (VACUUM): a deep page's ids then come from the order's index alone,
// without a table read per skipped row, whether autovacuum runs or not.

suite('PostgreSQL after a bulk write', { skip: PG_SKIP }, () => {
  test('an import leaves the tables analyzed and their pages all-visible: deep pages fetch no table rows, versions are read by key', async (t) => {
    const schema = `t_vacuum_${Date.now()}`;
    const admin = connect(PG_URL!, { poolSize: 1, longRunning: true });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    const storage = connect(PG_URL!, { searchPath: schema, poolSize: 2, longRunning: true });
    t.after(async () => {
      await storage.close();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    });
    await migrateToLatest(storage.db);
    await importDocument(storage.db, {
      project: { id: 'shop', name: 'Shop', currency: 'EUR' },
      products: Array.from({ length: 3000 }, (_, i) => ({
        id: i + 1,
        handle: `p${i + 1}`,
        name: `Product ${i + 1}`,
        price: 100 + (i % 97),
        created_at: 1_000_000 + i,
      })),
    });
    const { rows } = await sql<{ analyzed: boolean; visible: number; pages: number }>`
      select s.last_analyze is not null as analyzed, c.relallvisible as visible, c.relpages as pages
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = ${schema} and s.relname = 'products'`.execute(storage.db);
    assert.equal(rows[0].analyzed, true);
    assert.ok(rows[0].pages > 0 && rows[0].visible === rows[0].pages, JSON.stringify(rows[0]));
    const plan = await sql<{ 'QUERY PLAN': string }>`explain (analyze, costs off)
      select id from products where project_id = 'shop' and show_in_store = 1
      order by created_at desc, id desc limit 20 offset 2500`.execute(storage.db);
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    assert.match(text, /Index Only Scan/, text);
    assert.match(text, /Heap Fetches: 0/, text);
    // The change log too: a page's versions (resources/products/versions.ts) are read by its
    // primary key. Not analyzed, it was believed to hold a row or two for the project, and the
    // planner walked all of them by (project_id, type, seq) instead: O(catalog) per page.
    const versions = await sql<{ 'QUERY PLAN': string }>`explain (costs off)
      select id, seq from changes where project_id = 'shop' and type = 'product'
      and id in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)`.execute(storage.db);
    const versionsPlan = versions.rows.map((r) => r['QUERY PLAN']).join('\n');
    assert.match(versionsPlan, /changes_pk/, versionsPlan);
  });
});
