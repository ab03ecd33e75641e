import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importDocument } from '../../src/import/import.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { importFailure } from '../support/import-failure.js';
import { bearer, call } from '../support/request.js';

// An amount's error says the unit, with an example in the project's own currency (CONTRACT
// 14): "price must be an integer in the smallest currency unit (12.34 USD is 1234)", with the
// currency's decimals (JPY none, KWD three), on the single update, the batch and imports.

const UNIT = 'must be an integer in the smallest currency unit';
const RANGE = 'must be an integer from 0 to 1000000000000 in the smallest currency unit';
const CURRENCIES = [
  ['usd', 'USD', '12.34 USD is 1234'],
  ['yen', 'JPY', '1234 JPY is 1234'],
  ['kwd', 'KWD', '1.234 KWD is 1234'],
] as const;

const projectOf = (id: string, currency: string) => ({ id, name: id, currency });

eachBackend('amount errors name the unit', (backend) => {
  test('the single update and the batch, in each currency', async (t) => {
    const { app, storage, key } = await testApp(t, backend);
    for (const [id, currency, example] of CURRENCIES) {
      await importDocument(storage.db, {
        project: projectOf(id, currency),
        products: [{ id: 1, handle: 'one', name: 'One', price: 100 }],
      });
      const headers = bearer(await key(id));
      const single = await call(app, 'POST', `/v2/projects/${id}/products/1`, { headers, body: { price: 12.34 } });
      assert.equal(single.status, 400);
      assert.equal(single.body.error.message, `price ${UNIT} (${example})`);
      assert.deepEqual(single.body.error.details, [{ field: 'price', message: `${UNIT} (${example})` }]);
      const range = await call(app, 'POST', `/v2/projects/${id}/products/1`, { headers, body: { price: -1 } });
      assert.equal(range.body.error.message, `price ${RANGE} (${example})`);
      const batch = await call(app, 'PATCH', `/v2/projects/${id}/products/`, {
        headers,
        body: {
          products: [
            { id: 1, name: 'ok' },
            { handle: 'one', price: '12.34' },
          ],
        },
      });
      assert.equal(batch.status, 400);
      assert.deepEqual(batch.body.error.details, [{ field: 'products[1].price', message: `${UNIT} (${example})` }]);
    }
  });

  test("imports: a product's price, a plan price's amount, an order's total and item prices", async (t) => {
    const { storage } = await testApp(t, backend);
    for (const [id, currency, example] of CURRENCIES) {
      const { problems } = await importFailure(
        importDocument(storage.db, {
          project: projectOf(id, currency),
          products: [{ id: 1, handle: 'one', name: 'One', price: 12.34 }],
          plans: [{ id: 1, name: 'Pro', prices: [{ id: 1, amount: -5, interval: 'month' }] }],
          orders: [
            {
              id: 1,
              customer_email: 'a@example.com',
              total: '9.99',
              items: [{ product_id: null, name: 'Gone', quantity: 1, price: 9.99 }],
            },
          ],
        }),
      );
      assert.deepEqual(problems, [
        `products[0].price: ${UNIT} (${example})`,
        `plans[0].prices[0].amount: ${RANGE} (${example})`,
        `orders[0].items[0].price: ${UNIT} (${example})`,
        `orders[0].total: ${UNIT} (${example})`,
      ]);
    }
  });
});
