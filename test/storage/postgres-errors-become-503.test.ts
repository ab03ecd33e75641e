import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { sql } from 'kysely';
import { connect } from '../../src/db/connect.js';
import { isStorageUnavailable, toApiError } from '../../src/http/error-mapping.js';
import { adminQuery } from '../support/pg-database.js';
import { PG_SKIP, PG_URL } from '../support/storage.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { suite } from '../support/suite.js';

// The errors node-postgres really throws when the database cannot answer, each produced for
// real, must all become 503 `unavailable`; an error of the request itself must not.

const failure = (work: Promise<unknown>) =>
  work.then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e as Error & { code?: string },
  );

suite('what pg throws when PostgreSQL is unavailable maps to 503', { skip: PG_SKIP, timeout: 30_000 }, () => {
  test('refused, cut mid-query, terminated by the server, statement timeout, connect timeout', async (t) => {
    const proxy = new TcpProxy(Number(new URL(PG_URL!).port || 5432));
    t.after(() => proxy.stop());
    await proxy.start();
    const url = new URL(PG_URL!);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const storage = connect(url.toString(), { poolSize: 2 });
    t.after(() => storage.close());
    const seen: Record<string, Error & { code?: string }> = {};

    // The connection is cut while a query runs.
    const running = failure(sql`select pg_sleep(5)`.execute(storage.db));
    await new Promise((r) => setTimeout(r, 300));
    await proxy.stop();
    seen.cut = await running;
    // Nothing listens any more: refused.
    seen.refused = await failure(sql`select 1`.execute(storage.db));
    await proxy.start();
    assert.deepEqual(
      (await sql<{ one: number }>`select 1 as one`.execute(storage.db)).rows,
      [{ one: 1 }],
      'the pool recovers by itself',
    );

    // The server ends the backend (a restart, a failover, an administrator).
    // (A marker of this run names the backend: others' tests share the server.)
    const marker = `doomed_${randomBytes(6).toString('hex')}`;
    const doomed = failure(sql.raw(`select pg_sleep(5) as ${marker}`).execute(storage.db));
    await new Promise((r) => setTimeout(r, 300));
    await adminQuery(
      `select pg_terminate_backend(pid) from pg_stat_activity where query like '%as ${marker}' and pid <> pg_backend_pid()`,
    );
    seen.terminated = await doomed;

    // A statement over its time (on a pool of its own: the terminated backend's client may
    // still sit in the other pool until its socket closes, and would fail first).
    const direct = connect(PG_URL!, { poolSize: 1 });
    t.after(() => direct.close());
    seen.statementTimeout = await failure(
      direct.db.transaction().execute(async (trx) => {
        await sql`set local statement_timeout = 100`.execute(trx);
        await sql`select pg_sleep(2)`.execute(trx);
      }),
    );

    // The request's own mistakes stay what they are.
    const own = await failure(sql`select * from no_such_table`.execute(storage.db));
    assert.equal(own.code, '42P01');
    assert.equal(isStorageUnavailable(own), false);
    assert.equal(toApiError(own as never).status, 500);

    // A partition: the connection opens and nothing answers.
    proxy.freeze();
    const fresh = connect(url.toString(), { poolSize: 1 });
    t.after(() => fresh.close());
    seen.connectTimeout = await failure(sql`select 1`.execute(fresh.db));
    await proxy.stop();

    for (const [what, error] of Object.entries(seen)) {
      assert.ok(isStorageUnavailable(error), `${what}: ${error.code ?? ''} ${error.message}`);
      const api = toApiError(error as never);
      assert.deepEqual([api.status, api.code], [503, 'unavailable'], what);
      t.diagnostic(`${what}: ${error.code ?? '(no code)'} "${error.message}"`);
    }
  });
});
