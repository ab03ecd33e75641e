import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { NAMED_STATEMENTS, connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { testApp } from '../support/app.js';
import { bearer, call } from '../support/request.js';
import { seedShop } from '../support/shop.js';
import { PG_SKIP, PG_URL } from '../support/storage.js';
import { suite } from '../support/suite.js';

// A serving process limits every statement to 5 s, or DATABASE_STATEMENT_TIMEOUT_MS (no request
// holds a connection for long), and a request whose statement is cancelled answers 503
// `unavailable`; CLI commands run without a limit (a large import's reference checks may take
// minutes).

suite('PostgreSQL session settings per use', { skip: PG_SKIP }, () => {
  test('server: 5 s statement timeout by default, or as configured; CLI: none; both name themselves', async (t) => {
    const settings = async (longRunning: boolean, statementTimeoutMs?: number) => {
      const storage = connect(PG_URL!, { longRunning, poolSize: 1, statementTimeoutMs });
      t.after(() => storage.close());
      const { rows } = await sql<{
        timeout: string;
        name: string;
      }>`select current_setting('statement_timeout') as timeout, current_setting('application_name') as name`.execute(
        storage.db,
      );
      return rows[0];
    };
    assert.deepEqual(await settings(false), { timeout: '5s', name: 'storefront-api' });
    assert.deepEqual(await settings(false, 250), { timeout: '250ms', name: 'storefront-api' });
    assert.deepEqual(await settings(true), { timeout: '0', name: 'storefront-api' });
  });

  test('point reads are prepared once a session, as at most NAMED_STATEMENTS texts; other reads are not', async (t) => {
    const storage = connect(PG_URL!, { poolSize: 1 });
    t.after(() => storage.close());
    const prepared = async () =>
      (
        await sql<{ statement: string }>`select statement from pg_prepared_statements order by prepare_time`.execute(
          storage.db,
        )
      ).rows.map((r) => r.statement);
    await sql`select 1 as one`.execute(storage.db);
    assert.deepEqual(await prepared(), []);
    for (let i = 0; i < 3; i++) {
      const { rows } = await sql<{ n: number }>`select ${i}::int + 1 as n`.execute(storage.reads.point);
      assert.equal(rows[0].n, i + 1);
    }
    assert.deepEqual(await prepared(), ['select $1::int + 1 as n']);
    // Texts past the cap still run, unnamed.
    for (let i = 0; i < NAMED_STATEMENTS + 5; i++) {
      const { rows } = await sql<{ n: number }>`select ${sql.lit(i)}::int as n`.execute(storage.reads.point);
      assert.equal(rows[0].n, i);
    }
    assert.equal((await prepared()).length, NAMED_STATEMENTS);
  });

  test('a point `select *` of a table another process migrated reads the new columns', async (t) => {
    const table = `t_named_${Date.now()}`;
    const storage = connect(PG_URL!, { poolSize: 1 });
    t.after(async () => {
      await sql`drop table if exists ${sql.id(table)}`.execute(storage.db);
      await storage.close();
    });
    await sql`create table ${sql.id(table)} (id int)`.execute(storage.db);
    await sql`insert into ${sql.id(table)} values (1)`.execute(storage.db);
    const read = async () =>
      (await sql`select * from ${sql.id(table)} where id = ${1}`.execute(storage.reads.point)).rows;
    for (let i = 0; i < 6; i++) assert.deepEqual(await read(), [{ id: 1 }]);
    const other = connect(PG_URL!, { poolSize: 1 });
    await sql`alter table ${sql.id(table)} add column note text default 'new'`.execute(other.db);
    await other.close();
    // PostgreSQL refuses the session's plan ("cached plan must not change result type").
    assert.deepEqual(await read(), [{ id: 1, note: 'new' }]);
    assert.deepEqual(await read(), [{ id: 1, note: 'new' }]);
  });

  test('a request whose statement runs past the timeout answers 503 unavailable, and the next one is served', async (t) => {
    // Another transaction holds the project row; the update's first statement (the
    // data_version bump) waits on it until PostgreSQL cancels it.
    const schema = `t_timeout_${Date.now()}`;
    const admin = connect(PG_URL!, { poolSize: 2, longRunning: true });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    t.after(async () => {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    });
    const setup = connect(PG_URL!, { searchPath: schema, poolSize: 1, longRunning: true });
    await migrateToLatest(setup.db);
    await seedShop(setup);
    await setup.close();
    const storage = connect(PG_URL!, { searchPath: schema, poolSize: 2, statementTimeoutMs: 300 });
    t.after(() => storage.close());
    const { app, key } = await testApp(t, 'postgres', { storage });
    const token = await key('shop');

    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = admin.db.transaction().execute(async (trx) => {
      await sql`select 1 from ${sql.id(schema, 'projects')} where id = 'shop' for update`.execute(trx);
      locked();
      await released;
    });
    await isLocked;
    const r = await call(app, 'POST', '/v2/projects/shop/products/1', { headers: bearer(token), body: { price: 5 } });
    release();
    await holder;
    assert.equal(r.status, 503, r.text);
    assert.equal(r.body.error.code, 'unavailable');
    const after = await call(app, 'POST', '/v2/projects/shop/products/1', {
      headers: bearer(token),
      body: { price: 5 },
    });
    assert.equal(after.status, 200, after.text);
  });
});
