import { type TestContext, after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Backend, Storage } from '../../src/db/connect.js';
import { createKey } from '../../src/keys/repository.js';
import { openStorage } from './storage.js';

export interface TestApp {
  app: FastifyInstance;
  storage: Storage;
  /** a fresh API key of the project */
  key(projectId: string): Promise<string>;
}

/** A fresh app on fresh storage, closed when the test ends. */
export async function testApp(t: TestContext, backend: Backend): Promise<TestApp> {
  const storage = await openStorage(backend);
  const app = await buildApp({ storage });
  t.after(async () => {
    await app.close();
    await storage.close();
  });
  return { app, storage, key: async (projectId) => (await createKey(storage.db, projectId, 'test')).key };
}

/**
 * One app shared by the read-only tests of a suite: call it in the suite's body. It is built
 * (and seeded) before the first test and closed after the last. Use its fields in tests only.
 */
export function suiteApp(backend: Backend, seed?: (t: TestApp) => Promise<void>): TestApp {
  const shared = {} as TestApp;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    const storage = await openStorage(backend);
    const app = await buildApp({ storage });
    close = async () => {
      await app.close();
      await storage.close();
    };
    Object.assign(shared, { app, storage, key: async (projectId: string) => (await createKey(storage.db, projectId, 'test')).key });
    await seed?.(shared);
  });
  after(async () => close?.());
  return shared;
}
