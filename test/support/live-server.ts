import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Backend, Storage } from '../../src/db/connect.js';
import { loadDemo } from '../../src/demo/load-demo.js';
import { type TestApp, type TestAppOptions, suiteApp, testApp } from './app.js';
import { SHOP, seedShop } from './shop.js';

// The client talks HTTP through fetch, so its tests need a listening server (app.inject is
// not reachable by fetch or by a browser). `liveServer` gives a test its own app, storage and
// port; `sharedLiveServer` gives one to every test of a suite that only reads.

export interface LiveServer {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** an API key of the seeded project */
  key: string;
  /** the server's storage: for writes a test makes behind the API's back (imports, deletions) */
  storage: Storage;
}

type Seed = 'shop' | 'demo';

/** A listening app holding the fixture shop (./shop.ts) or the demo project "demo" that `npm start` serves. */
export async function liveServer(
  t: TestContext,
  backend: Backend,
  seed: Seed = 'shop',
  options: TestAppOptions = {},
): Promise<LiveServer> {
  return listen(await testApp(t, backend, options), seed);
}

/** One listening app for the read-only tests of a suite: call it in the suite's body, use it in tests. */
export function sharedLiveServer(backend: Backend, seed: Seed = 'shop'): LiveServer {
  const server = {} as LiveServer;
  suiteApp(backend, async (base) => void Object.assign(server, await listen(base, seed)));
  return server;
}

async function listen({ app, storage, key }: TestApp, seed: Seed): Promise<LiveServer> {
  const projectKey = seed === 'demo' ? (await loadDemo(storage.db)).key : (await seedShop(storage), await key(SHOP));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { baseUrl: baseUrlOf(app), key: projectKey, storage };
}

function baseUrlOf(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the test server has no TCP address');
  return `http://127.0.0.1:${address.port}`;
}
