import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importDocument } from '../../src/import/import.js';
import { createAdminKey } from '../../src/keys/admin.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { type Answer, bearer, call } from '../support/request.js';
import { twoStorages } from '../support/shared-storage.js';

// CONTRACT 19: a project deleted and created again with the same id, by another process and
// within the same second, meets nothing of its former life: no product, list, count, ETag
// 304, change-feed cursor, key or webhook endpoint. Two apps on one database stand for two
// server processes (nothing shared in memory); each round warms both apps' caches with one
// life, deletes it through one app and makes the next life through the other at once.

const P = '/v2/projects/life';
const ROUNDS = 12;

/** The round's records: names and counts found in no other round. */
function lifeOf(round: number) {
  const products = Array.from({ length: (round % 3) + 1 }, (_, i) => ({
    id: i + 1,
    handle: `item-${i + 1}`,
    name: `Round ${round} item ${i + 1}`,
    price: 100 * round + i,
  }));
  const orders = [{ id: 1, customer_email: `round${round}@example.com`, items: [], total: round }];
  return { project: { id: 'life', name: `Life ${round}`, currency: 'EUR' }, products, orders };
}

const roundsOf = (answer: Answer) =>
  [...answer.text.matchAll(/Round (\d+)|round(\d+)@/g)].map((m) => Number(m[1] ?? m[2]));

eachBackend('a project made again', (backend) => {
  test(`${ROUNDS} rounds of delete and create within the second, across two processes`, async (t) => {
    const shared = await twoStorages(backend);
    t.after(() => shared.close());
    const options = { webhooks: { allowPrivate: true } };
    const one = await testApp(t, backend, { ...options, storage: shared.a });
    const two = await testApp(t, backend, { ...options, storage: shared.b });
    const admin = bearer((await createAdminKey(shared.a.db, 'ops')).key);
    const create = async (round: number) => {
      const made = await call(one.app, 'POST', '/v2/projects/', { headers: admin, body: lifeOf(round).project });
      assert.equal(made.status, 201);
      await importDocument(shared.a.db, lifeOf(round));
      return { key: bearer(made.body.key.key), createdAt: made.body.project.created_at as number };
    };

    let life = await create(0);
    let sameSecond = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // The old life, read through both processes: every cache holds it.
      const hook = await call(one.app, 'POST', `${P}/webhooks/`, {
        headers: life.key,
        body: { url: 'http://127.0.0.1:9/hook' },
      });
      assert.equal(hook.status, 201);
      const seen = new Map<string, Answer>();
      for (const { app } of [one, two])
        for (const url of [
          '/products/',
          '/products/1',
          '/products/item-1',
          '/products/?ids=1,2,3',
          '/products/?q=round',
          '/changes/',
        ])
          seen.set(url, await call(app, 'GET', `${P}${url}`));
      for (const { app } of [one, two]) {
        assert.deepEqual(
          new Set(roundsOf(await call(app, 'GET', `${P}/orders/`, { headers: life.key }))),
          new Set([round]),
        );
        await call(app, 'GET', '/v2/projects/', { headers: admin });
      }
      const cursor = seen.get('/changes/')!.body.next as string;

      // Deleted through one process, made again through the other straight away.
      const gone = await call(two.app, 'DELETE', P, { headers: { ...admin, 'confirm-delete': 'life' } });
      assert.equal(gone.status, 204);
      const next = await create(round + 1);
      if (next.createdAt === life.createdAt) sameSecond++;
      // Within the same second, whatever the machine's speed: what created_at alone told apart.
      await shared.a.db.updateTable('projects').set({ created_at: life.createdAt }).where('id', '=', 'life').execute();
      next.createdAt = life.createdAt;

      for (const { app } of [two, one]) {
        for (const [url, old] of seen) {
          const fresh = await call(app, 'GET', `${P}${url}`, {
            headers: { 'if-none-match': String(old.headers.etag) },
          });
          assert.equal(fresh.status, 200, `${url}: a 304 for the old life's ETag`);
          assert.ok(
            roundsOf(fresh).every((r) => r === round + 1),
            `${url} shows the old life: ${fresh.text}`,
          );
        }
        // q's vocabulary is the new life's: its round number was never a word of the old one.
        const found = await call(app, 'GET', `${P}/products/?q=${encodeURIComponent(`round ${round + 1}`)}`);
        assert.equal(found.body.meta.total, ((round + 1) % 3) + 1, `q in the new life: ${found.text}`);
        const feed = await call(app, 'GET', `${P}/changes/?since=${cursor}`);
        assert.equal(feed.status, 410, "the old life's cursor is refused");
        assert.equal((await call(app, 'GET', `${P}/orders/`, { headers: life.key })).status, 401);
        const orders = await call(app, 'GET', `${P}/orders/`, { headers: next.key });
        assert.deepEqual(roundsOf(orders), [round + 1]);
        assert.deepEqual((await call(app, 'GET', `${P}/webhooks/`, { headers: next.key })).body.data, []);
        const listed = (await call(app, 'GET', '/v2/projects/', { headers: admin })).body.data[0];
        assert.deepEqual(listed.counts, {
          products: ((round + 1) % 3) + 1,
          categories: 0,
          plans: 0,
          users: 0,
          orders: 1,
        });
      }
      life = next;
    }
    t.diagnostic(`${sameSecond} of ${ROUNDS} lives began in the second of the one before, unaided`);
  });
});
