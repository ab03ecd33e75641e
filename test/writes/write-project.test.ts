import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Storage } from '../../src/db/connect.js';
import { generate } from '../../src/generate/generate.js';
import { importDocument } from '../../src/import/import.js';
import { updateOrder } from '../../src/resources/orders/update.js';
import { updateProduct } from '../../src/resources/products/update.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { writeProject } from '../../src/writes/write-project.js';
import { eachBackend } from '../support/each-backend.js';
import { SHOP, seedShop, shopDocument } from '../support/shop.js';
import { openStorage } from '../support/storage.js';

// The write unit (src/writes/write-project.ts): what a write declares is what its summary,
// the change log and the webhook outbox say, and a write that fails leaves none of them.

eachBackend('the write unit', (backend) => {
  let storage: Storage;
  before(async () => {
    storage = await openStorage(backend);
    await seedShop(storage);
    await createEndpoint(storage, SHOP, 'http://127.0.0.1:9/hook', undefined, Math.floor(Date.now() / 1000));
  });
  after(() => storage.close());

  const version = async () =>
    Number(
      (await storage.db.selectFrom('projects').select('data_version').where('id', '=', SHOP).executeTakeFirstOrThrow())
        .data_version,
    );
  const logAt = (seq: number) =>
    storage.db
      .selectFrom('changes')
      .select(['type', 'id', 'action'])
      .where('project_id', '=', SHOP)
      .where('seq', '=', seq)
      .orderBy('type')
      .orderBy('id')
      .execute();
  const outboxCount = async () =>
    Number(
      (
        await storage.db
          .selectFrom('webhook_messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('project_id', '=', SHOP)
          .executeTakeFirstOrThrow()
      ).n,
    );
  // The newest messages first: deliveries are numbered as they are queued (one endpoint).
  const lastEvents = async (n: number) =>
    (
      await storage.db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
        .select(['m.type', 'm.payload'])
        .where('m.project_id', '=', SHOP)
        .orderBy('d.id', 'desc')
        .limit(n)
        .execute()
    ).map((m) => ({ type: m.type, data: (JSON.parse(m.payload) as { data: unknown }).data }));

  test('an update: its summary, change log and event say exactly the record it changed', async () => {
    const before = await version();
    const messages = await outboxCount();
    const written = await writeProject(storage, SHOP, async (ctx) => {
      assert.equal(ctx.versionBefore, before);
      await ctx.db
        .updateTable('orders')
        .set({ is_archived: 1 })
        .where('project_id', '=', SHOP)
        .where('id', '=', 1)
        .execute();
      await ctx.changed('order', [1]);
      return 'done';
    });
    assert.equal(written.value, 'done');
    assert.equal(written.summary.version, before + 1);
    assert.equal(await version(), before + 1);
    assert.deepEqual([...written.summary.changed.keys()], ['order']);
    assert.deepEqual([...written.summary.changed.get('order')!.records!], [[1, 'upsert']]);
    assert.deepEqual(await logAt(before + 1), [{ type: 'order', id: 1, action: 'upsert' }]);
    assert.equal(await outboxCount(), messages + 1);
    const [event] = await lastEvents(1);
    assert.equal(event.type, 'order.updated');
    assert.equal((event.data as { id: number; is_archived: boolean }).id, 1);
    assert.equal((event.data as { is_archived: boolean }).is_archived, true);
  });

  test('a write that throws leaves the version, the change log and the outbox as they were', async () => {
    const before = await version();
    const messages = await outboxCount();
    await assert.rejects(
      writeProject(storage, SHOP, async (ctx) => {
        await ctx.db.updateTable('products').set({ price: 1 }).where('project_id', '=', SHOP).execute();
        await ctx.changed('product', [1, 2, 3]);
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.equal(await version(), before);
    assert.deepEqual(await logAt(before + 1), []);
    assert.equal(await outboxCount(), messages);
    const prices = await storage.db.selectFrom('products').select('price').where('project_id', '=', SHOP).execute();
    assert.ok(prices.some((p) => p.price !== 1));
  });

  test('the HTTP updates go through it: their summary names the one record', async () => {
    const before = await version();
    await updateProduct(storage, SHOP, { id: 1 }, { price: 4321 });
    assert.deepEqual(await logAt(before + 1), [{ type: 'product', id: 1, action: 'upsert' }]);
    await updateOrder(storage, SHOP, 2, { fulfillment_status: 'shipped' });
    assert.deepEqual(await logAt(before + 2), [{ type: 'order', id: 2, action: 'upsert' }]);
    const [order, product] = await lastEvents(2);
    assert.equal(product.type, 'product.updated');
    assert.equal((product.data as { price: number }).price, 4321);
    assert.equal(order.type, 'order.updated');
  });

  test('more changes than it lists: the summary names the type alone, the log has every one', async () => {
    const ids = Array.from({ length: 1500 }, (_, i) => i + 1);
    const written = await writeProject(storage, SHOP, (ctx) => ctx.changed('user', ids), { kind: 'batch' });
    const users = written.summary.changed.get('user')!;
    assert.equal(users.records, undefined);
    assert.equal(users.all, false);
    assert.equal((await logAt(written.summary.version)).length, 1500);
    const [completed] = await lastEvents(1);
    assert.equal(completed.type, 'import.completed');
    assert.equal((completed.data as { per_record_events: boolean }).per_record_events, false);
  });

  test('a new currency changes every product; an import and generate send import.completed', async () => {
    const doc = shopDocument();
    const imported = importDocument(storage.db, { project: { ...doc.project, currency: 'JPY' } });
    await imported;
    const v = await version();
    const products = await storage.db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', SHOP)
      .executeTakeFirstOrThrow();
    const logged = await logAt(v);
    assert.equal(logged.filter((c) => c.type === 'product').length, Number(products.n));
    const [completed] = await lastEvents(1);
    assert.equal(completed.type, 'import.completed');

    await generate(storage, SHOP, { products: 3, orders: 2, users: 1 });
    const [generated] = await lastEvents(1);
    assert.equal(generated.type, 'import.completed');
    const data = generated.data as { counts: Record<string, number>; cursor: string; per_record_events: boolean };
    assert.equal(data.counts.products, 3);
    assert.equal(data.counts.orders, 2);
    assert.equal(data.counts.users, 1);
    assert.equal(data.per_record_events, true);
    assert.equal((await logAt(await version())).length, 6);
  });

  test('two imports creating one project at once take two versions, so no reader misses either', async () => {
    const project = { id: 'fresh', name: 'Fresh', currency: 'EUR' };
    const product = (id: number) => ({ id, handle: `p-${id}`, name: `P ${id}`, price: 100 });
    await Promise.all([
      importDocument(storage.db, { project, products: [product(1), product(2)] }),
      importDocument(storage.db, { project, products: [product(3)] }),
    ]);
    const { data_version } = await storage.db
      .selectFrom('projects')
      .select('data_version')
      .where('id', '=', 'fresh')
      .executeTakeFirstOrThrow();
    assert.equal(Number(data_version), 2);
    const seqs = await storage.db
      .selectFrom('changes')
      .select(['id', 'seq'])
      .where('project_id', '=', 'fresh')
      .orderBy('id')
      .execute();
    const seqOf = new Map(seqs.map((r) => [Number(r.id), Number(r.seq)]));
    assert.equal(seqOf.get(1), seqOf.get(2));
    assert.notEqual(seqOf.get(1), seqOf.get(3));
    assert.deepEqual(new Set(seqOf.values()), new Set([1, 2]));
  });
});
