import type { TestContext } from 'node:test';
import type { Backend } from '../../src/db/connect.js';
import { loadDemo } from '../../src/demo/load-demo.js';
import { testApp } from './app.js';
import { SHOP, seedShop } from './shop.js';

// The client talks HTTP through fetch, so its tests need a listening server (app.inject is
// not reachable by fetch or by a browser). Each test gets its own app, storage and port.

export interface LiveServer {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** an API key of the seeded project */
  key: string;
}

/** A listening app holding the fixture shop (./shop.ts) or the demo project "demo" that `npm start` serves. */
export async function liveServer(
  t: TestContext,
  backend: Backend,
  seed: 'shop' | 'demo' = 'shop',
): Promise<LiveServer> {
  const { app, storage, key } = await testApp(t, backend);
  const projectKey = seed === 'demo' ? (await loadDemo(storage.db)).key : (await seedShop(storage), await key(SHOP));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the test server has no TCP address');
  return { baseUrl: `http://127.0.0.1:${address.port}`, key: projectKey };
}
