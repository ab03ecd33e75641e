import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SCOPES, type Scope } from '../../src/keys/scopes.js';
import { OPENAPI_PATH } from '../../src/openapi/plugin.js';
import { suiteApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { bearer, call } from '../support/request.js';
import { SHOP, seedShop } from '../support/shop.js';

// Every protected operation against a key that lacks each scope in turn. The operations and
// their scopes come from the app's own OpenAPI document (each route declares its scope next
// to `auth`, and the document shows it as the bearer requirement's role), so a new route is
// tried here without anyone listing it. Each request is also as wrong as it can be beyond
// the key (an unknown parameter, an empty body), to prove that 403 comes before any other
// check, as 401 comes before 403.

interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** every scope the key needs (the project export needs several) */
  scopes: Scope[];
  body?: unknown;
}

async function protectedOperations(app: Parameters<typeof call>[0]): Promise<Operation[]> {
  const document = (await call(app, 'GET', OPENAPI_PATH)).body;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const requirement = operation.security?.find((r: Record<string, string[]>) => r.bearerAuth);
      if (!requirement) continue;
      const scopes = requirement.bearerAuth as Scope[];
      // No role: any valid key of the project will do (keys/current, plans of every status).
      if (scopes.length === 0) continue;
      for (const scope of scopes) assert.ok(SCOPES.includes(scope), `${method} ${path} names its scope (${scope})`);
      // With an optional key (an empty requirement beside), the key is asked for by fetch_hidden=true.
      const optional = operation.security.some((r: object) => Object.keys(r).length === 0);
      const query = operation.parameters?.filter((p: { in: string }) => p.in === 'query') ?? [];
      if (optional)
        assert.ok(
          query.some((p: { name: string }) => p.name === 'fetch_hidden'),
          `${path}: how to need a key`,
        );
      const url =
        path.replace('{project_id}', SHOP).replace(/\{[^}]+\}/g, '1') +
        (optional ? '?fetch_hidden=true&nope=1' : '?nope=1');
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        url,
        scopes,
        body: method === 'post' || method === 'patch' ? {} : undefined,
      });
    }
  }
  return operations;
}

eachBackend('scopes of every protected operation', (backend) => {
  const shop = suiteApp(backend, async ({ storage }) => seedShop(storage));

  test('the document names a scope for every operation that takes a key, and each scope is used', async () => {
    const operations = await protectedOperations(shop.app);
    assert.ok(operations.length >= 8, `${operations.length} protected operations`);
    for (const scope of <Scope[]>[
      'users:read',
      'orders:read',
      'orders:write',
      'products:write',
      'products:read_hidden',
      'keys:manage',
      'webhooks:manage',
    ])
      assert.ok(
        operations.some((o) => o.scopes.includes(scope)),
        `some operation needs ${scope}`,
      );
  });

  test('a key without a scope gets 403 naming it on exactly the operations that need it', async () => {
    const operations = await protectedOperations(shop.app);
    for (const missing of SCOPES) {
      const key = await shop.key(SHOP, { scopes: SCOPES.filter((s) => s !== missing) });
      for (const op of operations) {
        const res = await call(shop.app, op.method, op.url, { headers: bearer(key), body: op.body });
        const where = `${op.method} ${op.url} without ${missing}`;
        if (op.scopes.includes(missing)) {
          assert.equal(res.status, 403, where);
          assert.equal(res.body.error.code, 'forbidden', where);
          assert.deepEqual(res.body.error.details, [{ field: 'scope', message: `requires ${missing}` }], where);
          assert.equal(res.headers['cache-control'], 'private, no-store', where);
        } else {
          // Past the key check, the unknown parameter (or the empty body) is what is wrong.
          assert.equal(res.status, 400, `${where}: ${res.text}`);
        }
      }
    }
  });

  test('a key with no scope an operation needs is still 401 when it is not valid, and 403 only once it is', async () => {
    const operations = await protectedOperations(shop.app);
    const foreign = await shop.key('other');
    for (const op of operations) {
      const none = await shop.key(SHOP, { scopes: [SCOPES.find((s) => !op.scopes.includes(s))!] });
      const bad = await call(shop.app, op.method, op.url, { headers: bearer(foreign), body: op.body });
      assert.equal(bad.status, 401, `${op.method} ${op.url} with another project's key`);
      const lacking = await call(shop.app, op.method, op.url, { headers: bearer(none), body: op.body });
      assert.equal(lacking.status, 403, `${op.method} ${op.url} with a key of one other scope only`);
    }
  });

  test('a key made without scopes has them all: nothing is 403', async () => {
    const key = await shop.key(SHOP);
    for (const op of await protectedOperations(shop.app)) {
      const res = await call(shop.app, op.method, op.url, { headers: bearer(key), body: op.body });
      assert.equal(res.status, 400, `${op.method} ${op.url}`);
    }
  });
});
