import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type Category,
  type Client,
  type FeedCategory,
  type Mirror,
  type Product,
  createClient,
  recordsOf,
} from '../../src/client/index.js';
import { importDocument } from '../../src/import/import.js';
import { eachBackend } from '../support/each-backend.js';
import { liveServer } from '../support/live-server.js';
import { OTHER, SHOP, shopDocument } from '../support/shop.js';

// client.sync() against the real change feed: the mirror equals what the lists show after
// each call, and each call reports exactly what it changed.

/** What the lists show: every visible product, and the category tree made flat. */
async function lists(client: Client): Promise<{ products: Product[]; categories: FeedCategory[] }> {
  const products = (await client.products.list({ perpage: 100 })).data;
  const flat = (tree: Category[]): FeedCategory[] =>
    tree.flatMap(({ subcategories, ...category }) => [category, ...flat(subcategories)]);
  return { products, categories: flat(await client.categories.list()) };
}

function held(mirror: Mirror) {
  return { products: recordsOf(mirror, 'product'), categories: recordsOf(mirror, 'category') };
}

const byId = <T extends { id: number }>(records: T[]) => [...records].sort((a, b) => a.id - b.id);

function assertSame(mirror: Mirror, shown: Awaited<ReturnType<typeof lists>>) {
  const mine = held(mirror);
  assert.deepEqual(byId(mine.products), byId(shown.products));
  assert.deepEqual(byId(mine.categories), byId(shown.categories));
}

eachBackend('client sync against the change feed', (backend) => {
  test('sync() keeps a mirror equal to the lists and reports what each call changed', async (t) => {
    const { baseUrl, key, storage } = await liveServer(t, backend);
    const client = createClient({ baseUrl, projectId: SHOP, apiKey: key });
    const mirror: Mirror = new Map();
    const types = ['product', 'category'] as const;

    const first = await client.sync(mirror, { types });
    assert.equal(first.added.length, 6 + 6, 'six visible products, six categories');
    assertSame(mirror, await lists(client));

    const quiet = await client.sync(mirror, { since: first.cursor, types });
    assert.deepEqual([quiet.added, quiet.changed, quiet.removed, quiet.cursor], [[], [], [], first.cursor]);

    await client.products.update('bravo', { price: 4321 });
    const golf = shopDocument().products.find((p) => p.handle === 'golf')!;
    await importDocument(storage.db, {
      project: { id: SHOP, name: 'Shop', currency: 'EUR' },
      categories: [{ id: 7, handle: 'new', name: 'New', parent_id: 4 }],
      products: [
        { ...golf, show_in_store: false },
        { id: 5, deleted: true },
        { handle: 'fig', name: 'Fig', price: 50 },
      ],
    });
    const second = await client.sync(mirror, { since: first.cursor, types });
    const summary = (changes: { type: string; id: number }[]) => changes.map((c) => `${c.type}:${c.id}`).sort();
    assert.deepEqual(summary(second.added), ['category:7', 'product:8']);
    assert.deepEqual(summary(second.changed), ['product:2']);
    assert.deepEqual(
      second.changed.map((c) => [(c.previous as Product).price, (c.record as Product).price]),
      [[100, 4321]],
    );
    assert.deepEqual(summary(second.removed), ['product:5', 'product:7']);
    assert.equal(second.resynced, false);
    assertSame(mirror, await lists(client));
  });

  test('a cursor the server does not know makes sync() start over, and the mirror still ends equal to the lists', async (t) => {
    const { baseUrl, key } = await liveServer(t, backend);
    // A cursor of the shop, after more writes than the other project ever had: to the other
    // project it names its future (as after a project deleted and made again), and is 410.
    const shop = createClient({ baseUrl, projectId: SHOP, apiKey: key });
    for (const price of [1, 2, 3]) await shop.products.update('bravo', { price });
    const shopFeed = shop.changes();
    for await (const change of shopFeed) void change;

    const other = createClient({ baseUrl, projectId: OTHER });
    const mirror: Mirror = new Map([['product:99', { id: 99 } as never]]);
    const result = await other.sync(mirror, { since: shopFeed.cursor, types: ['product'] });
    assert.equal(result.resynced, true);
    assert.deepEqual([result.added.map((c) => c.id), result.removed.map((c) => c.id)], [[1], [99]]);
    assert.deepEqual(byId(recordsOf(mirror, 'product')), byId((await lists(other)).products));
  });
});
