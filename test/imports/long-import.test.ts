import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { type Storage, connect } from '../../src/db/connect.js';
import { longWriteStorage } from '../../src/db/long-writes.js';
import { SHOP } from '../support/shop.js';
import { PG_SKIP, PG_URL, openStorage } from '../support/storage.js';
import { suite } from '../support/suite.js';
import { SHOP_LINE, importApp, ndjson } from './support.js';

// A server's requests run under a statement timeout (DATABASE_STATEMENT_TIMEOUT_MS), so that
// none hangs; an import job's statements may each run for longer (a batch of a large file,
// the reference checks of a million rows). `storefront serve` gives the jobs the CLI's
// long-running connection (src/db/long-writes.ts). Here the serving timeout is 300 ms and
// the import's first statement waits 1.5 s for the project row another connection holds:
// the job succeeds on its own connection, and fails without it. (SQLite has no statement
// timeout: its jobs write through the server's one writer.)

const TIMEOUT_MS = 300;
const HELD_MS = 1500;

/** A storage on the same schema as `storage`, with the serving statement timeout of this test. */
async function servingStorage(storage: Storage): Promise<{ serving: Storage; schema: string }> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(storage.db);
  const schema = rows[0].schema;
  return { serving: connect(PG_URL!, { searchPath: schema, poolSize: 4, statementTimeoutMs: TIMEOUT_MS }), schema };
}

/** Holds the shop's project row (as a long write of the shop would) for `ms`. */
async function holdProjectRow(schema: string, ms: number): Promise<{ released: Promise<void> }> {
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  await client.query('begin');
  await client.query('select 1 from projects where id = $1 for update', [SHOP]);
  // In an object: an async function would adopt the promise and wait for the release.
  const released = new Promise<void>((resolve) => setTimeout(resolve, ms)).then(async () => {
    await client.query('commit');
    await client.end();
  });
  return { released };
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
      const shop = await importApp(t, 'postgres', {
        storage: serving,
        imports: own ? { writer: writer.storage } : {},
      });
      const { released } = await holdProjectRow(schema, HELD_MS);
      const started = Date.now();
      const answer = await shop.upload(
        ndjson(SHOP_LINE, { type: 'product', id: 900, handle: 'p-900', name: 'Long', price: 5 }),
      );
      assert.equal(answer.status, 202);
      const done = (await shop.finished((answer.body as { id: number }).id)).body as {
        status: string;
        errors: { message: string }[];
      };
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
