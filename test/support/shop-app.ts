import type { TestContext } from 'node:test';
import type { Backend } from '../../src/db/connect.js';
import { type TestApp, testApp } from './app.js';
import { type Answer, type Method, type RequestOptions, call } from './request.js';
import { SHOP, seedShop } from './shop.js';

// A fresh app holding the fixture shop (test/support/shop.ts), with a key of the shop and
// requests under /v2/projects/shop that carry it: for tests that write and then assert on
// the exact state, so each gets a database of its own.

export interface ShopApp extends TestApp {
  /** a key of the shop project */
  shopKey: string;
  /** `call` under /v2/projects/shop with the shop's key, unless the headers name another */
  call(method: Method, path: string, options?: RequestOptions): Promise<Answer>;
  /** a POST of a JSON body under /v2/projects/shop with the shop's key */
  post(path: string, body: unknown): Promise<Answer>;
}

export async function shopApp(t: TestContext, backend: Backend): Promise<ShopApp> {
  const base = await testApp(t, backend);
  await seedShop(base.storage);
  const shopKey = await base.key(SHOP);
  const scoped: ShopApp['call'] = (method, path, options = {}) =>
    call(base.app, method, `/v2/projects/${SHOP}${path}`, {
      ...options,
      headers: { authorization: `Bearer ${shopKey}`, ...options.headers },
    });
  return { ...base, shopKey, call: scoped, post: (path, body) => scoped('POST', path, { body }) };
}
