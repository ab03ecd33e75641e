import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PRODUCT_LIST_READS, inPlace } from '../../src/cache/invalidation.js';
import { ORDER_CLAUSES, Product, ProductListQuery, ProductUpdate } from '../../src/resources/products/schemas.js';
import { FACET_NAMES } from '../../src/resources/products/search/facets.js';
import { eachBackend } from '../support/each-backend.js';
import { shopApp } from '../support/shop-app.js';

// The lists' totals and page ids outlive a product write that moves no product in any list
// (src/cache/invalidation.ts). That rule holds only while the module knows every filter,
// order and facet of the list: a new one added without its fields there would leave the
// totals stale, silently. These tests fail first.

const named = (group: Record<string, readonly string[]>) => Object.keys(group).sort();

test('every query parameter of the products list names the fields it reads', () => {
  assert.deepEqual(
    named(PRODUCT_LIST_READS.parameters),
    Object.keys(ProductListQuery.properties).sort(),
    'add the new parameter, with the product fields it filters or facets by, to PRODUCT_LIST_READS',
  );
});

test('every order clause of the products list names the fields it sorts by', () => {
  const sorts = [
    ...new Set(['relevance', ...ORDER_CLAUSES.map((clause) => clause.replace(/_(asc|desc)$/, ''))]),
  ].sort();
  assert.deepEqual(named(PRODUCT_LIST_READS.orders), sorts);
});

test('every facet of the products list names the fields it counts by', () => {
  assert.deepEqual(named(PRODUCT_LIST_READS.facets), [...FACET_NAMES].sort());
});

test('the fields named are fields of the product, so a typo cannot hide one', () => {
  const fields = new Set(Object.keys(Product.properties));
  for (const group of Object.values(PRODUCT_LIST_READS))
    for (const [name, read] of Object.entries(group as Record<string, readonly string[]>))
      for (const field of read) assert.ok(fields.has(field), `${name} reads ${field}, which a product lacks`);
});

test('only the fields no list reads are written in place', () => {
  const updatable = Object.keys(ProductUpdate.properties);
  assert.deepEqual(
    updatable.filter((field) => inPlace([field])),
    ['inventory_type', 'in_stock', 'stock_quantity'],
  );
  assert.equal(inPlace(['in_stock', 'price']), false);
});

eachBackend('the lists version follows the rule', (backend) => {
  test('a stock update leaves the lists version, a price update moves it', async (t) => {
    const { app, post } = await shopApp(t, backend);
    const version = async () =>
      (
        await app.storage.db
          .selectFrom('projects')
          .select('product_lists_version')
          .where('id', '=', 'shop')
          .executeTakeFirstOrThrow()
      ).product_lists_version;
    const before = await version();
    assert.equal((await post('/products/1', { in_stock: false })).status, 200);
    assert.equal(await version(), before);
    assert.equal((await post('/products/1', { price: 1234 })).status, 200);
    assert.ok((await version()) > before);
  });
});
