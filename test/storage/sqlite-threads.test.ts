import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { type Storage, connect } from '../../src/db/connect.js';
import { selectRows } from '../../src/db/array-rows.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { type SqliteThread, ThreadPool } from '../../src/db/sqlite-threads.js';
import { isStorageUnavailable } from '../../src/http/error-mapping.js';
import { testApp } from '../support/app.js';
import { call } from '../support/request.js';
import { seedShop } from '../support/shop.js';

// SQLite in worker threads (src/db/sqlite-threads-dialect.ts): the same rows, results and
// errors as the main-thread connection; one snapshot for reads.snapshot; every committed write
// seen by the next read; and the event loop free while a query runs or a write waits for
// another connection's lock. `TEST_SQLITE_READERS=2 npm test` runs every other suite on it.

/** A migrated SQLite file, opened with reader threads (`threaded`) and on the main thread (`plain`). */
async function twoWays(t: TestContext, readers = 2): Promise<{ path: string; threaded: Storage; plain: Storage }> {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-threads-'));
  const path = join(dir, 'test.db');
  const plain = connect(`sqlite:${path}`);
  await migrateToLatest(plain.db);
  const threaded = connect(`sqlite:${path}`, { sqliteReaders: readers });
  t.after(async () => {
    await threaded.close();
    await plain.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { path, threaded, plain };
}

/** A read that keeps a reader thread busy for a while: a recursive count, built as a SELECT. */
function slowRead(storage: Storage, n: number) {
  return storage.db
    .selectNoFrom(
      sql<number>`(with recursive c(x) as (select 1 union all select x + 1 from c where x < ${n}) select count(*) from c)`.as(
        'n',
      ),
    )
    .executeTakeFirstOrThrow();
}

async function errorOf(promise: Promise<unknown>): Promise<{ name: string; message: string; code?: string }> {
  try {
    await promise;
  } catch (e) {
    const error = e as Error & { code?: string };
    return { name: error.constructor.name, message: error.message, code: error.code };
  }
  assert.fail('expected an error');
}

describe('SQLite in worker threads', () => {
  test('is used for files, not for :memory: nor when 0 readers are asked', async (t) => {
    const { threaded, plain } = await twoWays(t);
    assert.equal(threaded.sqliteReaders, 2);
    assert.equal(plain.sqliteReaders, 0);
    const memory = connect('sqlite::memory:', { sqliteReaders: 2 });
    t.after(() => memory.close());
    assert.equal(memory.sqliteReaders, 0);
  });

  test('rows, write results and errors are those of the main-thread connection', async (t) => {
    const { threaded, plain } = await twoWays(t);
    await seedShop(threaded);
    for (const table of ['projects', 'products', 'product_categories', 'orders', 'order_items', 'users'] as const) {
      const query = (s: Storage) =>
        s.db
          .selectFrom(table)
          .selectAll()
          .orderBy(sql`rowid`)
          .execute();
      assert.deepEqual(await query(threaded), await query(plain), table);
    }
    // Integers are numbers (large ones too), reals stay reals, NULL is null, text is text.
    const values = (s: Storage) =>
      s.db
        .selectNoFrom([
          sql<number>`9007199254740991`.as('big'),
          sql<number>`1.5`.as('real'),
          sql<null>`null`.as('nothing'),
          sql<string>`'é'`.as('text'),
          sql<number>`count(*)`.as('n'),
        ])
        .executeTakeFirstOrThrow();
    assert.deepEqual(await values(threaded), await values(plain));
    assert.equal(typeof (await values(threaded)).big, 'number');

    // Insert and update results: Kysely's bigint insertId and numAffectedRows.
    const insert = (s: Storage, id: string) =>
      s.db
        .insertInto('projects')
        .values({ id, name: id, currency: 'EUR', created_at: 1, updated_at: 1 })
        .executeTakeFirst();
    const a = await insert(threaded, 'threads-a');
    const b = await insert(plain, 'threads-b');
    assert.equal(a.numInsertedOrUpdatedRows, 1n);
    assert.equal(typeof a.insertId, 'bigint');
    assert.equal(b.insertId! - a.insertId!, 1n);
    const update = (s: Storage) =>
      s.db.updateTable('projects').set({ updated_at: 2 }).where('id', 'like', 'threads-%').executeTakeFirst();
    assert.deepEqual(await update(threaded), await update(plain));

    // The same error class, code and message, from a read and from a write.
    const bad = (s: Storage) => sql`select nothing from nowhere`.execute(s.db);
    assert.deepEqual(await errorOf(bad(threaded)), await errorOf(bad(plain)));
    assert.equal((await errorOf(bad(threaded))).name, 'SqliteError');
    const badRead = (s: Storage) =>
      s.db
        .selectFrom('products')
        .select(sql`nothing`.as('x'))
        .execute();
    assert.deepEqual(await errorOf(badRead(threaded)), await errorOf(badRead(plain)));
    const duplicate = await errorOf(insert(threaded, 'threads-a'));
    assert.deepEqual(duplicate, await errorOf(insert(plain, 'threads-a')));
    assert.equal(duplicate.code, 'SQLITE_CONSTRAINT_PRIMARYKEY');
  });

  test('selectRows: read as arrays on a thread, the same rows; the statement then reads objects again', async (t) => {
    const { threaded, plain } = await twoWays(t, 1);
    await seedShop(threaded);
    const columns = ['id', 'handle', 'price', 'sku'] as const;
    const query = (s: Storage) => s.db.selectFrom('products').select(columns).orderBy('id');
    const rows = await selectRows(threaded.db, query(threaded), columns);
    assert.ok(rows.length > 0);
    assert.deepEqual(rows, await query(plain).execute());
    // One reader: the same cached statement, run again through Kysely, gives objects.
    assert.deepEqual(await query(threaded).execute(), rows);
    assert.deepEqual(await selectRows(plain.db, query(plain), columns), rows);
  });

  test('transactions commit and roll back on the writer thread', async (t) => {
    const { threaded, plain } = await twoWays(t);
    const project = (id: string) => ({ id, name: id, currency: 'EUR', created_at: 1, updated_at: 1 });
    await threaded.db.transaction().execute(async (trx) => {
      await trx.insertInto('projects').values(project('kept')).execute();
      // Inside the transaction its own write is seen; outside, on a reader, not yet.
      assert.equal((await trx.selectFrom('projects').select('id').where('id', '=', 'kept').execute()).length, 1);
      assert.equal(
        (await threaded.db.selectFrom('projects').select('id').where('id', '=', 'kept').execute()).length,
        0,
      );
    });
    await assert.rejects(
      threaded.db.transaction().execute(async (trx) => {
        await trx.insertInto('projects').values(project('undone')).execute();
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    const ids = (s: Storage) => s.db.selectFrom('projects').select('id').orderBy('id').execute();
    assert.deepEqual(await ids(threaded), [{ id: 'kept' }]);
    assert.deepEqual(await ids(plain), [{ id: 'kept' }]);
  });

  test('every committed write is seen by the next read', async (t) => {
    const { threaded } = await twoWays(t);
    await threaded.db
      .insertInto('projects')
      .values({ id: 'ryw', name: 'ryw', currency: 'EUR', created_at: 1, updated_at: 1 })
      .execute();
    for (let i = 1; i <= 50; i++) {
      await threaded.db.updateTable('projects').set({ data_version: i }).where('id', '=', 'ryw').execute();
      const row = await threaded.db
        .selectFrom('projects')
        .select('data_version')
        .where('id', '=', 'ryw')
        .executeTakeFirst();
      assert.equal(row?.data_version, i);
    }
  });

  test('reads.snapshot reads one state: a write committed meanwhile is not in it', async (t) => {
    const { threaded, plain } = await twoWays(t);
    await plain.db
      .insertInto('projects')
      .values({ id: 'snap', name: 'before', currency: 'EUR', created_at: 1, updated_at: 1 })
      .execute();
    const name = (s: Storage['db']) =>
      s.selectFrom('projects').select('name').where('id', '=', 'snap').executeTakeFirstOrThrow();
    const seen = await threaded.reads.snapshot(async (db) => {
      const first = await name(db);
      // Another connection commits between the two reads.
      await plain.db.updateTable('projects').set({ name: 'after' }).where('id', '=', 'snap').execute();
      const second = await name(db);
      return [first.name, second.name];
    });
    assert.deepEqual(seen, ['before', 'before']);
    assert.equal((await name(threaded.db)).name, 'after');
  });

  test('more reads at once than readers: they queue and all answer', async (t) => {
    const { threaded } = await twoWays(t, 1);
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => slowRead(threaded, 1000 + i)));
    assert.deepEqual(
      counts.map((c) => c.n),
      Array.from({ length: 20 }, (_, i) => 1000 + i),
    );
  });

  test('a write waiting for another connection’s lock leaves the event loop and the readers free', async (t) => {
    const { path, threaded } = await twoWays(t);
    await threaded.db
      .insertInto('projects')
      .values({ id: 'locked', name: 'locked', currency: 'EUR', created_at: 1, updated_at: 1 })
      .execute();
    // Another process's import holds the write lock.
    const other = new SQLite(path);
    t.after(() => other.close());
    other.exec('begin immediate');
    const events: string[] = [];
    const write = threaded.db
      .updateTable('projects')
      .set({ name: 'mine' })
      .where('id', '=', 'locked')
      .execute()
      .then(
        () => events.push('write succeeded'),
        (e: unknown) => events.push(isStorageUnavailable(e) ? 'write unavailable (503)' : `write failed: ${String(e)}`),
      );
    // While the writer thread waits (busy_timeout), timers fire and reads answer.
    await new Promise((resolve) => setTimeout(resolve, 10));
    events.push('timer');
    const row = await threaded.db.selectFrom('projects').select('name').where('id', '=', 'locked').executeTakeFirst();
    events.push(`read ${row?.name}`);
    await write;
    other.exec('rollback');
    assert.deepEqual(events, ['timer', 'read locked', 'write unavailable (503)']);
  });

  test('/healthz and a product answer while slow reads hold every kept reader', async (t) => {
    const { threaded } = await twoWays(t, 2);
    await seedShop(threaded);
    const { app } = await testApp(t, 'sqlite', { storage: threaded });
    // A first request compiles the routes' schemas and serializers: on a loaded machine that
    // took longer than the slow reads. Another product, so that product 1 is still read.
    assert.equal((await call(app, 'GET', '/v2/projects/shop/products/2')).status, 200);
    assert.equal((await call(app, 'GET', '/healthz')).status, 200);
    const done: string[] = [];
    // Long enough to be last by far: millions of rows on each of the two readers.
    const slow = [1, 2].map((i) => slowRead(threaded, 3_000_000).then(() => done.push(`slow read ${i}`)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const health = call(app, 'GET', '/healthz').then((r) => done.push(`healthz ${r.status}`));
    const product = call(app, 'GET', '/v2/projects/shop/products/1').then((r) => done.push(`product ${r.status}`));
    await Promise.all([health, product, ...slow]);
    assert.deepEqual(
      done.slice(0, 2).sort(),
      ['healthz 200', 'product 200'],
      `the slow reads ended last: ${done.join(', ')}`,
    );
  });

  test('a threaded storage closed before any query lets its process exit', async (t) => {
    const { path } = await twoWays(t);
    // Kysely destroys only a driver a query initialised: connect.ts closes the pools itself.
    const connectJs = new URL('../../src/db/connect.js', import.meta.url).href;
    const script = `const { connect } = await import(${JSON.stringify(connectJs)});
      await connect(${JSON.stringify(`sqlite:${path}`)}, { sqliteReaders: 2 }).close();`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 });
    assert.equal(run.signal, null, 'the process still ran after close()');
    assert.equal(run.status, 0, String(run.stderr));
  });

  test('a pool grows beyond its size while every thread is busy, and shrinks back when idle', async (t) => {
    const { path } = await twoWays(t);
    const pool = new ThreadPool({ path, readonly: true }, 1, 3, 50);
    t.after(() => pool.close());
    const busy = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
    assert.equal(new Set(busy).size, 3);
    assert.equal(pool.threads, 3);
    // At the most: the next one waits for a thread to be released.
    let fourth: unknown;
    const waiting = pool.acquire().then((thread) => (fourth = thread));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(fourth, undefined);
    pool.release(busy[0]);
    await waiting;
    assert.equal(fourth, busy[0]);
    assert.deepEqual(((await busy[1].run('select 1 as one', [])) as { rows: unknown[] }).rows, [{ one: 1 }]);
    for (const thread of [fourth as SqliteThread, busy[1], busy[2]]) pool.release(thread);
    // The two extra threads end once idle; the pool's own stays.
    for (let i = 0; i < 200 && pool.threads > 1; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(pool.threads, 1);
  });
});
