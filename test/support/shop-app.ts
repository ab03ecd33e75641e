import type { TestContext } from 'node:test';
import type { Backend } from '../../src/db/connect.js';
import { type TestApp, suiteApp, testApp } from './app.js';
import { type Answer, type Method, type RequestOptions, call } from './request.js';
import { OTHER, SHOP, seedShop } from './shop.js';

// An app holding the fixture shop (test/support/shop.ts), with a key of the shop and requests
// under /v2/projects/shop that carry it. `shopApp` gives a test a database of its own (for
// tests that write and then assert on exact state); `sharedShopApp` gives one database to
// every test of a suite that only reads.

export interface ShopApp extends TestApp {
  /** a key of the shop project */
  shopKey: string;
  /** `call` under /v2/projects/shop with the shop's key, unless the headers name another */
  call(method: Method, path: string, options?: RequestOptions): Promise<Answer>;
  /** a POST of a JSON body under /v2/projects/shop with the shop's key */
  post(path: string, body: unknown): Promise<Answer>;
}

/** A fresh app holding the shop, closed when the test ends. */
export async function shopApp(t: TestContext, backend: Backend): Promise<ShopApp> {
  const base = await testApp(t, backend);
  await seedShop(base.storage);
  return scoped(base, await base.key(SHOP));
}

/**
 * One app holding the shop for the read-only tests of a suite: call it in the suite's body
 * and use its fields in tests only (they are filled in before the first test).
 */
export function sharedShopApp(backend: Backend): ShopApp {
  const shop = {} as ShopApp;
  suiteApp(backend, async (base) => {
    await seedShop(base.storage);
    Object.assign(shop, scoped(base, await base.key(SHOP)));
  });
  return shop;
}

/** A key of the shop and one of the other project, for a suite's `before` (after the shop is seeded). */
export async function shopAndOtherKeys(base: TestApp): Promise<[shop: string, other: string]> {
  return [await base.key(SHOP), await base.key(OTHER)];
}

function scoped(base: TestApp, shopKey: string): ShopApp {
  const send: ShopApp['call'] = (method, path, options = {}) =>
    call(base.app, method, `/v2/projects/${SHOP}${path}`, {
      ...options,
      headers: { authorization: `Bearer ${shopKey}`, ...options.headers },
    });
  return { ...base, shopKey, call: send, post: (path, body) => send('POST', path, { body }) };
}
