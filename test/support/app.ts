import type { TestContext } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Backend, Storage } from '../../src/db/connect.js';
import { createKey } from '../../src/keys/repository.js';
import { OPENAPI_PATH } from '../../src/openapi/plugin.js';
import { ConformanceChecker } from './openapi-conformance.js';
import { openStorage } from './storage.js';

export interface TestApp {
  app: FastifyInstance;
  storage: Storage;
  /** a fresh API key of the project */
  key(projectId: string): Promise<string>;
}

/**
 * A fresh app on fresh storage, closed when the test ends. Every answer of `app.inject` is
 * checked against the app's own OpenAPI document (test/support/openapi-conformance.ts says
 * how and lists the exceptions): a test that gets an undocumented answer fails.
 */
export async function testApp(t: TestContext, backend: Backend): Promise<TestApp> {
  const storage = await openStorage(backend);
  const app = await buildApp({ storage });
  t.after(async () => {
    await app.close();
    await storage.close();
  });
  checkAnswers(app);
  return { app, storage, key: async (projectId) => (await createKey(storage.db, projectId, 'test')).key };
}

// Every app builds the same document, so its compiled checker is shared across tests.
const checkers = new Map<string, ConformanceChecker>();

function checkAnswers(app: FastifyInstance): void {
  const inject = app.inject.bind(app);
  let checker: Promise<ConformanceChecker> | undefined;
  const checkerOf = async () => {
    const text = (await inject({ method: 'GET', url: OPENAPI_PATH })).payload;
    if (!checkers.has(text)) checkers.set(text, new ConformanceChecker(JSON.parse(text)));
    return checkers.get(text)!;
  };
  app.inject = ((options: unknown, callback?: unknown) => {
    // The chain and callback forms would slip past the check; the promise form is the one used.
    if (options === undefined || callback !== undefined) {
      throw new TypeError('testApp checks every answer against the OpenAPI document: use `await app.inject(options)`');
    }
    return inject(options as InjectOptions | string).then(async (response) => {
      checker ??= checkerOf();
      (await checker).check(response);
      return response;
    });
  }) as typeof app.inject;
}
