import type { TestContext } from 'node:test';
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
