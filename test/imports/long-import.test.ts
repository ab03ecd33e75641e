import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { type Storage, connect } from '../../src/db/connect.js';
import { longWriteStorage } from '../../src/db/long-writes.js';
import { SHOP, seedShop } from '../support/shop.js';
import { PG_SKIP, PG_URL, openStorage } from '../support/storage.js';
import { suite } from '../support/suite.js';
import { SHOP_LINE, importApp, ndjson } from './support.js';

// A server's requests run under a statement timeout (DATABASE_STATEMENT_TIMEOUT_MS), so that
// none hangs; an import job's statements may each run for longer (a batch of a large file,
// the reference checks of a million rows). `storefront serve` gives the jobs the CLI's
// long-running connection (src/db/long-writes.ts). Here the serving timeout is 300 ms and
// another connection holds the project row the import's first statement needs: for 1.5 s
// when the job has its own connection (it waits, then succeeds), and until the job has ended
// without one (it fails, however late it starts on a busy machine). (SQLite has no statement
// timeout: its jobs write through the server's one writer.) The shop is seeded without the
// timeout: on a busy machine the seed's statistics refresh alone can outlast it.

const TIMEOUT_MS = 300;
const HELD_MS = 1500;

/** A storage on the same schema as `storage`, with the serving statement timeout of this test. */
async function servingStorage(storage: Storage): Promise<{ serving: Storage; schema: string }> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(storage.db);
  const schema = rows[0].schema;
  return { serving: connect(PG_URL!, { searchPath: schema, poolSize: 4, statementTimeoutMs: TIMEOUT_MS }), schema };
}

/** Holds the shop's project row (as a long write of the shop would) until `until` settles. */
async function holdProjectRow(schema: string, until: Promise<unknown>): Promise<{ released: Promise<void> }> {
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  await client.query('begin');
  await client.query('select 1 from projects where id = $1 for update', [SHOP]);
  // In an object: an async function would adopt the promise and wait for the release.
  const released = until.finally(async () => {
    await client.query('commit');
    await client.end();
  });
  return { released: released.then(() => {}) };
}

suite('an import job longer than the serving statement timeout', { skip: PG_SKIP }, () => {
  for (const own of [true, false]) {
    test(own ? 'succeeds on the jobs’ own connection' : 'fails on the serving pool (the reason for it)', async (t) => {
      const base = await openStorage('postgres');
      const { serving, schema } = await servingStorage(base);
      const writer = longWriteStorage(PG_URL!, serving, { searchPath: schema });
      t.after(async () => {
        if (writer.owned) await writer.storage.close();
        await serving.close();
        await base.close();
      });
      await seedShop(base);
      const shop = await importApp(t, 'postgres', {
        storage: serving,
        seed: false,
        imports: own ? { writer: writer.storage } : {},
      });
      let ended = (): void => {};
      const jobEnded = new Promise<void>((resolve) => (ended = resolve));
      const { released } = await holdProjectRow(schema, own ? sleep(HELD_MS) : jobEnded);
      const started = Date.now();
      const answer = await shop.upload(
        ndjson(SHOP_LINE, { type: 'product', id: 900, handle: 'p-900', name: 'Long', price: 5 }),
      );
      assert.equal(answer.status, 202);
      const done = (await shop.finished((answer.body as { id: number }).id)).body as {
        status: string;
        errors: { message: string }[];
      };
      ended();
      await released;
      if (own) {
        assert.equal(done.status, 'succeeded', JSON.stringify(done.errors));
        assert.ok(Date.now() - started >= HELD_MS - 100, 'the import waited for the row');
        const stored = await shop.send('GET', '/products/900');
        assert.equal(stored.status, 200);
      } else {
        assert.equal(done.status, 'failed');
        assert.equal((await shop.send('GET', '/products/900')).status, 404);
      }
    });
  }
});
