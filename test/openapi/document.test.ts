import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { NESTING_DEPTH } from '../../src/openapi/bound-recursion.js';
import { testApp } from '../support/app.js';

// The document served at /v2/openapi.json: valid OpenAPI 3.1, clean of TypeBox internals,
// and listing exactly the routes and methods the app serves.

type Json = Record<string, any>;

/** A response object, or the shared response its $ref names. */
function resolved(document: Json, response: Json): Json {
  const name = /^#\/components\/responses\/(.+)$/.exec(response.$ref ?? '')?.[1];
  return name ? document.components.responses[name] : response;
}

async function documentOf(app: FastifyInstance): Promise<Json> {
  const response = await app.inject({ method: 'GET', url: '/v2/openapi.json' });
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  return response.json();
}

test('the document is a valid OpenAPI 3.1 document', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const document = await documentOf(app);
  const validator = new Validator();
  const result = await validator.validate(document);
  assert.equal(validator.version, '3.1');
  assert.deepEqual(result.errors, undefined);
  assert.equal(result.valid, true);
});

test('shared schemas are components, referred to by local $refs, with no TypeBox keys left', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const document = await documentOf(app);
  for (const name of ['Error', 'Product', 'Plan', 'Category'])
    assert.ok(document.components.schemas[name], `components/schemas/${name}`);
  const text = JSON.stringify(document);
  assert.doesNotMatch(text, /"~[a-z]/i, 'no TypeBox-internal key such as ~kind');
  assert.doesNotMatch(text, /"\$id"/, 'no bare $id');
  for (const [, ref] of text.matchAll(/"\$ref":"([^"]*)"/g)) {
    const [, kind, name] = /^#\/components\/(schemas|responses|headers)\/(.+)$/.exec(ref) ?? [];
    assert.ok(kind && document.components[kind][name], `$ref ${ref} resolves inside the document`);
  }
  // Category nests itself: the document spells it out NESTING_DEPTH levels deep with no cycle
  // (tools that dereference every $ref stop at one), each level the same shape.
  let level = document.components.schemas.Category;
  for (let depth = 1; depth < NESTING_DEPTH; depth++) {
    assert.deepEqual(level.required, ['id', 'handle', 'name', 'parent_id', 'subcategories'], `level ${depth}`);
    level = level.properties.subcategories.items;
  }
  assert.equal(level.properties.subcategories.items.type, 'object');
  assert.doesNotMatch(JSON.stringify(document.components.schemas.Category), /\$ref/);
});

test('error answers are described once, as shared responses, with the headers that come with them', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const document = await documentOf(app);
  const shared = document.components.responses;
  for (const [name, status] of Object.entries({ BadRequest: 400, NotFound: 404, TooManyRequests: 429 })) {
    assert.match(shared[name].description, /^[a-z_]+: /, name);
    assert.equal(shared[name].content['application/json'].schema.$ref, '#/components/schemas/Error');
    // every operation refers to the shared answer of each error status it lists
    for (const item of Object.values<Json>(document.paths))
      for (const operation of Object.values<Json>(item))
        assert.deepEqual(operation.responses[status], { $ref: `#/components/responses/${name}` });
  }
  assert.equal(shared.Unauthorized.headers['WWW-Authenticate'].schema.const, 'Bearer');
  assert.ok(shared.TooManyRequests.headers['Retry-After']);
  // every answer, shared or not, names the rate-limit headers every answer carries (issue 29)
  const rateLimit = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];
  for (const name of rateLimit) assert.ok(document.components.headers[name].schema, name);
  const answers = [
    ...Object.values<Json>(shared),
    ...Object.values<Json>(document.paths).flatMap((item) =>
      Object.values<Json>(item).flatMap((operation) => Object.values<Json>(operation.responses)),
    ),
  ].filter((answer) => !answer.$ref);
  for (const answer of answers)
    assert.deepEqual(
      rateLimit.map((name) => answer.headers?.[name]?.$ref),
      rateLimit.map((name) => `#/components/headers/${name}`),
      answer.description,
    );
  // no error body is spelled out inside an operation
  const operations = JSON.stringify(document.paths);
  assert.doesNotMatch(operations, /"#\/components\/schemas\/Error"/);
});

test('every operation: a camelCase operationId, examples for its parameters and body, patterns, security', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const document = await documentOf(app);
  assert.ok(document.servers.some((s: Json) => s.url === '/'));
  const ids: string[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.match(
        operation.operationId ?? '',
        /^(list|get|update|create|revoke|roll|delete|enable|replay|cancel|export)[A-Z][A-Za-z]+$/,
        `${where}: operationId`,
      );
      ids.push(operation.operationId);
      for (const parameter of operation.parameters ?? []) {
        assert.notEqual(parameter.example, undefined, `${where}: ${parameter.name} has an example`);
        if (parameter.schema.pattern)
          assert.match(String(parameter.example), new RegExp(parameter.schema.pattern), `${where}: ${parameter.name}`);
      }
      const names = (operation.parameters ?? []).map((p: Json) => `${p.in} ${p.name}`);
      for (const name of ['path project_id', 'query ids', 'query order', 'path product', 'path category'])
        if (names.includes(name)) {
          const parameter = operation.parameters.find((p: Json) => `${p.in} ${p.name}` === name);
          assert.ok(parameter.schema.pattern, `${where}: ${name} has a pattern`);
        }
      // The updates: a body, If-Match and Idempotency-Key (the key API's POSTs take neither header).
      if (method === 'post' && operation.operationId.startsWith('update')) {
        assert.ok(operation.requestBody.content['application/json'].example, `${where}: body example`);
        for (const header of ['header if-match', 'header idempotency-key'])
          assert.ok(names.includes(header), `${where}: documents ${header}`);
      }
      const secured = (operation.security ?? []).some((s: Json) => 'bearerAuth' in s);
      // The admin API (CONTRACT 19): an admin key, no project's.
      if (path === '/v2/projects' || (path === '/v2/projects/{project_id}' && method === 'delete'))
        assert.deepEqual(operation.security, [{ adminKey: [] }], `${where}: an admin key`);
      else if (path.endsWith('/plans/') && method === 'get')
        assert.deepEqual(operation.security, [{}, { bearerAuth: [] }], `${where}: any key, only for fetch_inactive`);
      else if (path.endsWith('/keys/current'))
        assert.deepEqual(operation.security, [{ bearerAuth: [] }], `${where}: any valid key, no scope`);
      else if (path.includes('/plans') || path.includes('/categories'))
        assert.deepEqual(operation.security, [], `${where}: public, said outright`);
      else if (path.endsWith('/exports/project.ndjson'))
        assert.deepEqual(
          operation.security,
          [{ bearerAuth: ['users:read', 'orders:read', 'products:read_hidden'] }],
          `${where}: every read scope`,
        );
      else if (path.includes('/products') && !path.includes('/exports/') && method === 'get')
        assert.deepEqual(
          operation.security,
          [{}, { bearerAuth: ['products:read_hidden'] }],
          `${where}: a key only for fetch_hidden`,
        );
      else assert.ok(secured, `${where}: needs a key`);
    }
  }
  assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  assert.ok(ids.includes('listProducts') && ids.includes('updateOrder'));
  // Swagger UI sends the body example on Execute: the order update's must not cancel or archive.
  const orderUpdate = document.paths['/v2/projects/{project_id}/orders/{order_id}'].post;
  assert.deepEqual(orderUpdate.requestBody.content['application/json'].example, { fulfillment_status: 'shipped' });
});

// POSTs that are actions with nothing to say beyond their path.
const TAKES_NO_BODY = new Set([
  'POST /v2/projects/{project_id}/keys/{key_id}/revoke',
  'POST /v2/projects/{project_id}/webhooks/{endpoint_id}/enable',
  'POST /v2/projects/{project_id}/webhooks/messages/{message_id}/replay',
  'POST /v2/projects/{project_id}/imports/{import_id}/cancel',
  // A download link takes the export's own query.
  'POST /v2/projects/{project_id}/exports/products.csv/link',
  'POST /v2/projects/{project_id}/exports/orders.csv/link',
  'POST /v2/projects/{project_id}/exports/project.ndjson/link',
]);

test('every operation declares its path parameters, its errors, and 304 for GET', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const document = await documentOf(app);
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    // The projects (the admin API) and the project itself (getProject) are the roots every other path is under.
    assert.ok(
      path === '/v2/projects' || path === '/v2/projects/{project_id}' || path.startsWith('/v2/projects/{project_id}/'),
      path,
    );
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, operation] of Object.entries<Json>(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      const inPath = (operation.parameters ?? []).filter((p: Json) => p.in === 'path').map((p: Json) => p.name);
      assert.deepEqual(inPath.sort(), [...names].sort(), `${where}: path parameters`);
      const statuses = Object.keys(operation.responses);
      assert.ok(
        ['200', '201', '204'].some((s) => statuses.includes(s)),
        `${where}: documents its success`,
      );
      for (const status of ['400', '404', '500', '503'])
        assert.ok(statuses.includes(status), `${where}: documents ${status}`);
      // A streamed file (the exports) is sent without an ETag, so it is never a 304.
      const file = !('application/json' in (operation.responses['200']?.content ?? { 'application/json': 1 }));
      if (method === 'get' && !file) assert.ok(statuses.includes('304'), `${where}: documents 304`);
      if (method === 'get' && file) {
        assert.ok(!statuses.includes('304'), `${where}: a streamed file documents no 304`);
        assert.equal(operation.responses['200'].headers?.ETag, undefined, `${where}: a streamed file has no ETag`);
      }
      if (operation.security?.some((s: Json) => 'bearerAuth' in s || 'adminKey' in s))
        assert.ok(statuses.includes('401'), `${where}: documents 401`);
      if (method === 'post') {
        if (!TAKES_NO_BODY.has(where))
          assert.ok(operation.requestBody?.content?.['application/json']?.schema, `${where}: documents its body`);
        for (const status of ['413', '415']) assert.ok(statuses.includes(status), `${where}: documents ${status}`);
      }
      for (const [status, listed] of Object.entries<Json>(operation.responses)) {
        const response = resolved(document, listed);
        if (status === '304' || status === '204')
          assert.equal(response.content, undefined, `${where}: ${status} has no body`);
        // An export's file: its one media type, with a schema.
        else if (status === '200' && path.includes('/exports/'))
          assert.ok(
            response.content?.[path.endsWith('.csv') ? 'text/csv' : 'application/x-ndjson']?.schema,
            `${where}: 200 has the file's media type`,
          );
        else assert.ok(response.content?.['application/json']?.schema, `${where}: ${status} has a JSON schema`);
      }
    }
  }
});

test('the document lists every API route and exactly the methods each one serves', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const document = await documentOf(app);
  const documented = new Map(Object.entries<Json>(document.paths).map(([path, item]) => [trim(path), item]));
  const served = apiPaths(app);
  assert.ok(served.length >= 6, `found the API routes: ${served.join(', ')}`);
  for (const path of served) {
    const item = documented.get(path);
    assert.ok(item, `${path} is served but not documented`);
    // A method the path does not document must be refused with 405; the test app's
    // conformance check compares that answer's Allow header with the documented methods.
    const method = ['DELETE', 'PATCH', 'PUT', 'POST'].find((m) => !(m.toLowerCase() in item));
    assert.ok(method);
    const url = path.replace('{project_id}', 'shop').replace(/\{[^}]+\}/g, '1');
    const response = await app.inject({ method: method as 'DELETE', url });
    assert.equal(response.statusCode, 405, `${method} ${url}`);
  }
  assert.equal(documented.size, served.length, 'no documented path is missing from the app');
});

test('/docs/json serves the same document as /v2/openapi.json', async (t) => {
  const { app } = await testApp(t, 'sqlite');
  const fromDocs = await app.inject({ method: 'GET', url: '/docs/json' });
  assert.deepEqual(fromDocs.json(), await documentOf(app));
});

/** The API's route paths, `{name}` for parameters, read from Fastify's own route tree. */
function apiPaths(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const paths: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    const path = trim(stack.join('').replace(/:([A-Za-z0-9_-]+)/g, '{$1}'));
    const api = path === '/v2/projects' || path.startsWith('/v2/projects/');
    if (match[3] && api && !path.includes('*')) paths.push(path);
  }
  return [...new Set(paths)];
}

function trim(path: string): string {
  return path.replace(/\/+$/, '');
}
