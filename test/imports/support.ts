import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { LimitsConfig } from '../../src/config.js';
import type { Backend, Storage } from '../../src/db/connect.js';
import type { ImportOptions } from '../../src/plugins/imports.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { type TestApp, testApp } from '../support/app.js';
import { type Answer, bearer, call } from '../support/request.js';
import { SHOP, seedShop } from '../support/shop.js';

// An app holding the shop, with a spool directory of its own (so a test can see that no file
// is left behind) and a webhook endpoint of the shop (so that the outbox shows any event).

export interface ImportApp extends TestApp {
  spoolDir: string;
  shopKey: string;
  /** a request under /v2/projects/shop with the shop's key */
  send(
    method: 'GET' | 'POST',
    path: string,
    options?: { headers?: Record<string, string>; raw?: string | Buffer },
  ): Promise<Answer>;
  /** uploads a file: NDJSON unless the content type says otherwise */
  upload(body: string, options?: { type?: string; query?: string; headers?: Record<string, string> }): Promise<Answer>;
  /** polls an import until it ended */
  finished(id: number): Promise<Answer>;
  /** the files in the spool directory */
  spooled(): string[];
}

export async function importApp(
  t: TestContext,
  backend: Backend,
  options: {
    storage?: Storage;
    imports?: ImportOptions;
    limits?: Partial<LimitsConfig>;
    seed?: boolean;
    spoolDir?: string;
  } = {},
): Promise<ImportApp> {
  const spoolDir = options.spoolDir ?? mkdtempSync(join(tmpdir(), 'import-spool-'));
  if (!options.spoolDir) t.after(() => rmSync(spoolDir, { recursive: true, force: true }));
  const base = await testApp(t, backend, {
    storage: options.storage,
    limits: options.limits,
    imports: { runner: true, pollMs: 100, ...options.imports, spoolDir },
  });
  if (options.seed !== false) {
    await seedShop(base.storage);
    await createEndpoint(base.storage, SHOP, 'http://127.0.0.1:9/hooks', undefined, 1);
  }
  await base.app.ready();
  const shopKey = await base.key(SHOP);
  const send: ImportApp['send'] = (method, path, o = {}) =>
    call(base.app, method, `/v2/projects/${SHOP}${path}`, { ...o, headers: { ...bearer(shopKey), ...o.headers } });
  const finished = async (id: number) => {
    for (let i = 0; i < 400; i++) {
      const answer = await send('GET', `/imports/${id}`);
      // Ended, and let go by this process's runner (its spool file removed).
      const ended = !['queued', 'running'].includes((answer.body as { status: string }).status);
      if (ended && base.app.imports.runner.live(id) === undefined) return answer;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`import ${id} did not end`);
  };
  return {
    ...base,
    spoolDir,
    shopKey,
    send,
    upload: (body, o = {}) =>
      send('POST', `/imports/${o.query ?? ''}`, {
        raw: body,
        headers: { 'content-type': o.type ?? 'application/x-ndjson', ...o.headers },
      }),
    finished,
    spooled: () => readdirSync(spoolDir),
  };
}

export function ndjson(...records: object[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

export const SHOP_LINE = { type: 'project', id: SHOP, name: 'Shop', currency: 'EUR' };

/** What an import could change: the catalog, the change feed, the outbox and the versions. */
export async function stateOf(storage: Storage) {
  const db = storage.db;
  return {
    products: await db
      .selectFrom('products')
      .select(['project_id', 'id', 'name', 'price', 'updated_at'])
      .orderBy('project_id')
      .orderBy('id')
      .execute(),
    categories: await db
      .selectFrom('categories')
      .select(['project_id', 'id', 'name'])
      .orderBy('project_id')
      .orderBy('id')
      .execute(),
    changes: await db
      .selectFrom('changes')
      .select(['project_id', 'type', 'id', 'seq', 'action'])
      .orderBy('project_id')
      .orderBy('seq')
      .orderBy('type')
      .orderBy('id')
      .execute(),
    messages: await db.selectFrom('webhook_messages').select(['id', 'type']).orderBy('id').execute(),
    projects: await db.selectFrom('projects').select(['id', 'name', 'data_version']).orderBy('id').execute(),
  };
}
