import { randomInt } from 'node:crypto';
import { type TestContext, after, before } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.js';
import type { Backend, Storage } from '../../src/db/connect.js';
import { type NewKeyOptions, createKey } from '../../src/keys/repository.js';
import { OPENAPI_PATH } from '../../src/openapi/plugin.js';
import { ConformanceChecker } from './openapi-conformance.js';
import { openStorage } from './storage.js';

// The one way tests build the app. Every answer of `app.inject` on these apps is checked
// against the app's own OpenAPI document (test/support/openapi-conformance.ts says how and
// lists the exceptions): a test that gets an answer the document does not describe fails.

export interface TestApp {
  app: FastifyInstance;
  storage: Storage;
  /** a fresh API key of the project (every scope, no expiry, unless the options say) */
  key(projectId: string, options?: NewKeyOptions): Promise<string>;
}

export interface TestAppOptions extends Omit<AppOptions, 'storage'> {
  /** storage to build on (another "process" on the same database); the caller closes it */
  storage?: Storage;
}

/** An app closed when the test ends; on fresh storage unless `options.storage` is given. */
export async function testApp(t: TestContext, backend: Backend, options: TestAppOptions = {}): Promise<TestApp> {
  const { storage: given, ...appOptions } = options;
  const storage = given ?? (await openStorage(backend));
  const app = await buildApp({ ...appOptions, storage });
  t.after(async () => {
    await app.close();
    if (!given) await storage.close();
  });
  checkAnswers(app);
  return { app, storage, key: keyMaker(storage) };
}

/**
 * One app shared by the read-only tests of a suite: call it in the suite's body. It is built
 * (and seeded) before the first test and closed after the last. Use its fields in tests only.
 */
export function suiteApp(
  backend: Backend,
  seed?: (t: TestApp) => Promise<void>,
  options: Omit<AppOptions, 'storage'> = {},
): TestApp {
  const shared = {} as TestApp;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    const storage = await openStorage(backend);
    const app = await buildApp({ ...options, storage });
    close = async () => {
      await app.close();
      await storage.close();
    };
    checkAnswers(app);
    Object.assign(shared, { app, storage, key: keyMaker(storage) });
    await seed?.(shared);
  });
  after(async () => close?.());
  return shared;
}

function keyMaker(storage: Storage): TestApp['key'] {
  return async (projectId, options) => (await createKey(storage, projectId, 'test', options)).key;
}

// Every app builds the same document, so its compiled checker is shared across tests.
const checkers = new Map<string, ConformanceChecker>();

function checkAnswers(app: FastifyInstance): void {
  const inject = app.inject.bind(app);
  let checker: Promise<ConformanceChecker> | undefined;
  const checkerOf = async () => {
    // From an address of its own (in 198.18.0.0/15, kept for tests), so that it never spends
    // a test's rate limit, nor meets a budget that an earlier app spent through Redis.
    const remoteAddress = `198.18.${randomInt(256)}.${randomInt(1, 255)}`;
    const text = (await inject({ method: 'GET', url: OPENAPI_PATH, remoteAddress })).payload;
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
