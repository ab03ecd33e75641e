import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { MIGRATION_NAMES } from '../../src/db/migrate.js';
import { adminQuery, freshDatabase } from '../support/pg-database.js';
import { runCli } from '../support/processes.js';
import { PG_SKIP } from '../support/storage.js';
import { suite } from '../support/suite.js';

// Migrations are versioned, recorded and idempotent: `storefront migrate` builds the schema
// once, a second run (or two at once) changes nothing, and the one migration set builds
// the same tables and columns on SQLite and PostgreSQL.

async function pgSchema(url: string): Promise<string> {
  const parts = await Promise.all([
    adminQuery(
      `select table_name, column_name, data_type, is_nullable, collation_name, column_default from information_schema.columns
       where table_schema = 'public' order by table_name, ordinal_position`,
      [],
      url,
    ),
    adminQuery(
      `select tc.table_name, tc.constraint_name, tc.constraint_type, string_agg(k.column_name, ',' order by k.ordinal_position) as columns
       from information_schema.table_constraints tc join information_schema.key_column_usage k using (constraint_schema, constraint_name)
       where tc.table_schema = 'public' group by 1, 2, 3 order by 1, 2`,
      [],
      url,
    ),
    adminQuery(
      `select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by 1, 2`,
      [],
      url,
    ),
    adminQuery('select name, timestamp from kysely_migration order by name', [], url),
  ]);
  return JSON.stringify(
    parts.map((p) => p.rows),
    null,
    1,
  );
}

function sqliteSchema(path: string): string {
  const db = new SQLite(path, { readonly: true });
  try {
    const objects = db.prepare('select type, name, tbl_name, sql from sqlite_master order by type, name').all();
    const migrations = db.prepare('select name, timestamp from kysely_migration order by name').all();
    return JSON.stringify({ objects, migrations }, null, 1);
  } finally {
    db.close();
  }
}

function sqliteColumns(path: string): Record<string, string[]> {
  const db = new SQLite(path, { readonly: true });
  try {
    // products_fts*: SQLite's trigram search index (an FTS5 table and its shadow tables), the
    // counterpart of PostgreSQL's pg_trgm GIN index; an index, not data (src/db/search-index.ts).
    const tables = db
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'products_fts%' order by name",
      )
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map((t) => [
        t.name,
        (db.prepare(`pragma table_info(${t.name})`).all() as { name: string }[]).map((c) => c.name),
      ]),
    );
  } finally {
    db.close();
  }
}

suite('migrations on PostgreSQL', { skip: PG_SKIP, timeout: 60_000 }, () => {
  test('migrate twice, and twice at once: one recorded run, the schema unchanged', async (t) => {
    const db = await freshDatabase(t, 'sf_migrate');
    const env = { DATABASE_URL: db.url };
    const first = await runCli(['migrate'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, `applied ${MIGRATION_NAMES.join(', ')}\n`);
    const schema = await pgSchema(db.url);
    const second = await runCli(['migrate'], env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /schema is up to date/);
    assert.equal(await pgSchema(db.url), schema, 'a second migrate changes nothing');

    // Two processes migrating one fresh database at the same moment: Kysely's lock lets one
    // apply each migration and the other find it done.
    const race = await freshDatabase(t, 'sf_migrate_race');
    const results = await Promise.all([
      runCli(['migrate'], { DATABASE_URL: race.url }),
      runCli(['migrate'], { DATABASE_URL: race.url }),
    ]);
    assert.deepEqual(
      results.map((r) => r.code),
      [0, 0],
      results.map((r) => r.stderr).join('\n'),
    );
    assert.deepEqual(results.map((r) => r.stdout.startsWith('applied')).sort(), [false, true]);
    const recorded = await adminQuery('select name from kysely_migration', [], race.url);
    assert.deepEqual(
      recorded.rows,
      MIGRATION_NAMES.map((name) => ({ name })),
    );
    // The same schema as the sequential run, apart from when it was recorded.
    const strip = (s: string) => s.replace(/"timestamp": "[^"]*"/g, '');
    assert.equal(strip(await pgSchema(race.url)), strip(schema));
  });

  test('one migration set: the same tables and columns as SQLite; every project table is keyed by project_id first', async (t) => {
    const db = await freshDatabase(t, 'sf_migrate_cmp');
    assert.equal((await runCli(['migrate'], { DATABASE_URL: db.url })).code, 0);
    const dir = mkdtempSync(join(tmpdir(), 'sf-migrate-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'cmp.db');
    assert.equal((await runCli(['migrate', '--database', `sqlite:${file}`])).code, 0);

    const rows = (
      await adminQuery(
        `select table_name, column_name from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`,
        [],
        db.url,
      )
    ).rows;
    const pg: Record<string, string[]> = {};
    for (const r of rows) (pg[r.table_name] ??= []).push(r.column_name);
    assert.deepEqual(pg, sqliteColumns(file));

    // Ready to be distributed by project_id (Citus, YugabyteDB): each table of a project's
    // data has a primary key that starts with project_id. projects and api_keys are the
    // small global tables (see docs/DEPLOY.md).
    const keys = await adminQuery(
      `select tc.table_name, string_agg(k.column_name, ',' order by k.ordinal_position) as columns
       from information_schema.table_constraints tc join information_schema.key_column_usage k using (constraint_schema, constraint_name)
       where tc.table_schema = 'public' and tc.constraint_type = 'PRIMARY KEY' group by 1 order by 1`,
      [],
      db.url,
    );
    // The webhook tables are global too: endpoint and message ids are unique across the
    // service, like key ids (`webhook delete <endpoint_id>` names no project). So is the
    // import jobs' table: it is one queue, claimed across projects by every server process.
    // Admin keys belong to the deployment, not to a project (CONTRACT 19).
    const global = new Set([
      'projects',
      'api_keys',
      'admin_keys',
      'kysely_migration',
      'kysely_migration_lock',
      'webhook_endpoints',
      'webhook_messages',
      'webhook_deliveries',
      'webhook_attempts',
      'import_jobs',
    ]);
    const projectTables = keys.rows.filter((r) => !global.has(r.table_name));
    assert.ok(projectTables.length >= 9);
    for (const r of projectTables) assert.match(r.columns, /^project_id,/, `${r.table_name} is keyed (${r.columns})`);
  });
});

describe('migrations on SQLite', () => {
  test('migrate twice: one recorded run, the schema unchanged', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'sf-migrate-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const url = `sqlite:${join(dir, 'shop.db')}`;
    const first = await runCli(['migrate', '--database', url]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, `applied ${MIGRATION_NAMES.join(', ')}\n`);
    const schema = sqliteSchema(join(dir, 'shop.db'));
    const second = await runCli(['migrate', '--database', url]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /schema is up to date/);
    assert.equal(sqliteSchema(join(dir, 'shop.db')), schema);
  });
});
