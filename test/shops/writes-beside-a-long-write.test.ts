import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { sql } from 'kysely';
import { type Backend, type Storage, WRITE_WAIT_MS } from '../../src/db/connect.js';
import { longWriteStorage } from '../../src/db/long-writes.js';
import { importApp, ndjson, SHOP_LINE } from '../imports/support.js';
import { eachBackend } from '../support/each-backend.js';
import { type Answer, bearer, call } from '../support/request.js';
import { OTHER, SHOP } from '../support/shop.js';
import { openStorage, threadedSqlite } from '../support/storage.js';

// CONTRACT 19: a write beside another project's long write (an import of minutes) is answered,
// at once or with 503 and Retry-After after WRITE_WAIT_MS, never left waiting until its client
// gives up. SQLite has one writer: a request's write waits for it at most WRITE_WAIT_MS
// (src/db/sqlite-threads.ts); on PostgreSQL only a write of the same project waits (its
// project row), at most WRITE_WAIT_MS too (lock_timeout of the serving connections, src/db/pg-pool.ts).

/** a request's answer may come this much later than WRITE_WAIT_MS on a loaded machine */
const SLACK_MS = 2500;
const HOLD_MS = WRITE_WAIT_MS + 2000;

/** A server's storage: SQLite served by worker threads, as `storefront serve` runs it. */
async function serverStorage(backend: Backend): Promise<Storage> {
  return backend === 'sqlite' ? threadedSqlite(2) : openStorage('postgres');
}

/** Holds the shop's project row in a write transaction (SQLite: the writer too) for `ms`. */
function holdShop(storage: Storage, ms: number): Promise<void> {
  return storage.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('projects')
      .set({ name: sql`name` })
      .where('id', '=', SHOP)
      .execute();
    await sleep(ms);
  });
}

function assertAnswered(answer: { status: number; headers: Record<string, unknown> }, what: string): void {
  if (answer.status === 200) return;
  assert.equal(answer.status, 503, what);
  assert.equal(answer.headers['retry-after'], '2', `${what}: Retry-After`);
}

eachBackend('writes beside a long write', (backend) => {
  test('a write waiting for a held lock answers 503 with Retry-After after WRITE_WAIT_MS', async (t) => {
    const storage = await serverStorage(backend);
    t.after(() => storage.close());
    const app = await importApp(t, backend, { storage });
    const otherKey = bearer(await app.key(OTHER));
    const price = (project: string, key: Record<string, string>, value: number) =>
      call(app.app, 'POST', `/v2/projects/${project}/products/1`, { headers: key, body: { price: value } });

    const held = holdShop(storage, HOLD_MS);
    await sleep(50);
    // The shop's write and another project's, side by side.
    const started = Date.now();
    const timed = async (answer: Promise<Answer>) => ({ answer: await answer, ms: Date.now() - started });
    const [shop, other] = await Promise.all([
      timed(price(SHOP, bearer(app.shopKey), 111)),
      timed(price(OTHER, otherKey, 222)),
    ]);
    assert.equal(shop.answer.status, 503);
    assert.equal(shop.answer.body.error.code, 'unavailable');
    assert.equal(shop.answer.headers['retry-after'], '2');
    assert.ok(shop.ms >= WRITE_WAIT_MS - 50 && shop.ms < WRITE_WAIT_MS + SLACK_MS, `answered after ${shop.ms} ms`);
    // Another project: on SQLite it waits for the same writer; on PostgreSQL nothing holds it.
    if (backend === 'sqlite') assert.equal(other.answer.status, 503);
    else {
      assert.equal(other.answer.status, 200);
      assert.ok(other.ms < WRITE_WAIT_MS, `another project is not held on PostgreSQL (${other.ms} ms)`);
    }
    await held;
    // Once the lock is let go, the same write goes through; the refused one wrote nothing.
    const after = await price(SHOP, bearer(app.shopKey), 333);
    assert.equal(after.status, 200);
    assert.equal(after.body.price, 333);
  });

  test("another project's writes are answered throughout an import over HTTP", async (t) => {
    const storage = await serverStorage(backend);
    t.after(() => storage.close());
    // As `storefront serve` gives its import jobs (on SQLite: the writer, waiting its turn).
    const imports = backend === 'sqlite' ? { writer: longWriteStorage('', storage).storage } : {};
    const app = await importApp(t, backend, { storage, imports });
    const otherKey = bearer(await app.key(OTHER));
    const records = [SHOP_LINE];
    for (let i = 1; i <= 20_000; i++)
      records.push({ type: 'product', id: 1000 + i, handle: `bulk-${i}`, name: `Bulk ${i}`, price: i } as never);
    const queued = await app.upload(ndjson(...records));
    assert.equal(queued.status, 202);
    let running = true;
    const finished = app.finished(queued.body.id).finally(() => (running = false));
    const answers: { status: number; ms: number }[] = [];
    for (let n = 1; running || answers.length < 3; n++) {
      const started = Date.now();
      const answer = await call(app.app, 'POST', `/v2/projects/${OTHER}/products/1`, {
        headers: otherKey,
        body: { price: n },
      });
      answers.push({ status: answer.status, ms: Date.now() - started });
      assertAnswered(answer, `write ${n}`);
      await sleep(50);
    }
    assert.equal((await finished).body.status, 'succeeded');
    const slowest = Math.max(...answers.map((a) => a.ms));
    t.diagnostic(
      `${answers.length} writes beside the import: ${answers.filter((a) => a.status === 503).length} were 503, the slowest ${slowest} ms`,
    );
    assert.ok(slowest < WRITE_WAIT_MS + SLACK_MS, `the slowest write took ${slowest} ms`);
    assert.equal(answers.at(-1)!.status, 200);
  });
});
