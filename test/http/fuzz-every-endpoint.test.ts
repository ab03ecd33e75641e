import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createKey, revokeKey } from '../../src/keys/repository.js';
import { CategoryListQuery } from '../../src/resources/categories/schemas.js';
import { OrderListQuery } from '../../src/resources/orders/schemas.js';
import { PlanListQuery } from '../../src/resources/plans/schemas.js';
import { ProductListQuery } from '../../src/resources/products/schemas.js';
import { UserListQuery } from '../../src/resources/users/schemas.js';
import { eachBackend } from '../support/each-backend.js';
import { testApp } from '../support/app.js';
import { seedShop } from '../support/shop.js';

// Property-based fuzzing of every endpoint: random methods, paths, query strings, headers
// and bodies. Whatever arrives, the answer is never a 5xx, every error is the envelope of
// CONTRACT 6, nothing reveals a stack, SQL or a file path, a hidden product is only shown
// to its project's key, and no record of another project is ever shown.
// FUZZ_RUNS sets the number of cases, FUZZ_SEED replays a failure (fast-check prints both).

const RUNS = Number(process.env.FUZZ_RUNS ?? 4000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

// Texts that exist in exactly one place of the data (see test/support/shop.ts).
const HIDDEN = 'Hidden gem'; // shop's hidden product
const OTHER = ['Otherapple', 'Otheronly', 'Secretcategory', 'Otherplan', 'Otheruser', 'Otherbuyer'];
const OTHER_HIDDEN = 'Otheronly';
const SHOP = ['Crisp and red.', 'Banana', 'Basic'];
const LEAK =
  /\bat [\w.<>]+ \(|node_modules|\/work\/|dist\/(src|test)|\.[jt]s:\d+|SQLITE_|sqlite3|syntax error|\bselect\b.+\bfrom\b|relation "|kysely|TypeError|ReferenceError|RangeError/i;

const RESOURCES = ['products', 'categories', 'plans', 'users', 'orders'];
// Every name the list routes declare (from their schemas: a new filter is fuzzed as it lands),
// and names that probe the query parser's prototype.
const LIST_QUERIES = [CategoryListQuery, OrderListQuery, PlanListQuery, ProductListQuery, UserListQuery];
const QUERY_NAMES = [
  ...new Set(LIST_QUERIES.flatMap((q) => Object.keys(q.properties))),
  '__proto__',
  'constructor',
  'toString',
];
const TRICKY = [
  '',
  '0',
  '-1',
  '1',
  '3',
  '9',
  '01',
  '1e3',
  '0x10',
  ' 1',
  '1.5',
  '9007199254740993',
  '99999999999999999999999',
  'true',
  'false',
  'null',
  'charlie',
  'alpha',
  'only-other',
  '__proto__',
  'constructor',
  'prototype',
  '%00',
  '\u0000',
  '..',
  '../..',
  '%2e%2e',
  '*',
  "' or 1=1 --",
  '"; drop table products; --',
  'é',
  '😀',
  '\ud800',
  'a'.repeat(300),
  'price_asc,name_desc',
  '1,2,3',
  ','.repeat(50),
];

const text = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.nat().map(String),
  fc.bigInt().map(String),
);
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return escape(s); // lone surrogates: a raw %-escape the server must cope with too
  }
};

const segment = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '1',
      '2',
      '3',
      '4',
      '8',
      '77',
      'alpha',
      'bravo',
      'charlie',
      'only-other',
      'fruit',
      'secret',
    ),
  },
  { weight: 3, arbitrary: text.map(enc) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%C0%AF', '%FF', '%u0000', '?', '#', ';', '//', '%2F') },
);
// Values a real client would send, so that many requests get past validation.
const plausible = fc.oneof(
  fc.integer({ min: 1, max: 120 }).map(String),
  fc.constantFrom(
    'true',
    'false',
    'price_asc',
    'name_desc,date_asc',
    '1,2,3',
    'paid',
    'shipped',
    'a@example.com',
    'app',
  ),
);
const project = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('shop', 'other') }, { weight: 1, arbitrary: segment });
const path = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(project, fc.constantFrom(...RESOURCES), fc.option(segment, { nil: undefined }), fc.boolean())
      .map(([p, r, s, slash]) => `/v2/projects/${p}/${r}${s === undefined ? '/' : `/${s}${slash ? '/' : ''}`}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '/healthz',
      '/readyz',
      '/metrics',
      '/',
      '/v2',
      '/v2/projects',
      '/v2/projects/',
      '/v1/projects/shop/products/',
    ),
  },
  { weight: 1, arbitrary: fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`) },
);
const query = fc.oneof(
  fc
    .array(
      fc.tuple(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_NAMES) }, { weight: 1, arbitrary: text }),
        fc.oneof(plausible, text),
      ),
      { maxLength: 5 },
    )
    .map((pairs) => pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')),
  fc.constantFrom(
    'fetch_hidden=true',
    'fetch_hidden=true&fetch_hidden=true',
    'a[b]=1',
    'a[__proto__][x]=1',
    '__proto__[admin]=1',
    '&&&',
    '=',
    'page',
    'perpage=%00',
    'search=%',
    'ids=' + '1,'.repeat(150),
  ),
);

type Auth = 'none' | 'shop' | 'other' | 'revoked' | 'junk';
const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
const oddHeaders = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json',
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'application/json; charset=latin1',
      '',
    ),
    'if-none-match': fc.oneof(fc.constant('*'), headerValue),
    'if-match': fc.oneof(fc.constant('*'), headerValue),
    'idempotency-key': headerValue,
    'x-request-id': headerValue,
    accept: fc.constantFrom('*/*', 'text/html', 'application/xml'),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'not-an-ip', '::1'),
    'content-length': fc.constantFrom('0', '1', '99999999'),
  },
  { requiredKeys: [] },
);
// Mostly the headers a well-behaved client sends, so that many requests reach the handlers.
const headers = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom<Record<string, string>>({ 'content-type': 'application/json' }, {}) },
  { weight: 1, arbitrary: oddHeaders },
);

/** A JSON text `depth` levels deep. */
const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);
const body = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .record(
        {
          name: fc.option(text, { nil: undefined }),
          price: fc.option(fc.oneof(fc.integer(), fc.double(), fc.constant(1e308)), { nil: undefined }),
          inventory_type: fc.option(fc.constantFrom('simple', 'advanced', 'x'), { nil: undefined }),
          in_stock: fc.option(fc.oneof(fc.boolean(), text), { nil: undefined }),
          stock_quantity: fc.option(fc.integer({ min: -10, max: 200_000 }), { nil: undefined }),
          payment_status: fc.option(text, { nil: undefined }),
          is_canceled: fc.option(fc.constantFrom('true', 'false', true, 1), { nil: undefined }),
          delivery_information: fc.option(text, { nil: undefined }),
        },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(o)),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 20 }).map((d) => nested(d * 1000, '[', ']')) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 20 }).map((d) => `${'{"a":'.repeat(d * 500)}1${'}'.repeat(d * 500)}`),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"admin":true}}}',
      '{"price":1e999}',
      '{"price":123456789012345678901234567890}',
      '{"price":-0}',
      '{"name":"\\u0000"}',
      '{"name":"a\u0000b"}',
      '{"name":"\\ud800"}',
      '{"price":1,"price":2}',
      '',
      '{',
      'null',
      '[]',
      '"text"',
      '\u0000',
      '{"name":' + JSON.stringify('x'.repeat(64 * 1024)) + '}',
      'x'.repeat(64 * 1024 + 1),
    ),
  },
);

const request = fc.record({
  method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
  path,
  query: fc.option(query, { nil: undefined, freq: 2 }),
  auth: fc.constantFrom<Auth>('none', 'shop', 'shop', 'other', 'revoked', 'junk'),
  headers,
  body: fc.option(body, { nil: undefined }),
});

type Request = {
  method: string;
  path: string;
  query?: string;
  auth: Auth;
  headers: Record<string, string>;
  body?: string;
};
const json = { 'content-type': 'application/json' };
/** Cases that once failed (or matter most): always tried first, on both backends. */
const EXAMPLES: Request[] = [
  { method: 'GET', path: '/v2/projects/shop/users/%/', auth: 'junk', headers: {} }, // a broken %-escape skipped the envelope
  { method: 'GET', path: '/v2/projects/shop/products/', query: 'search=a%00b', auth: 'none', headers: {} }, // NUL: PostgreSQL 500
  { method: 'POST', path: '/v2/projects/shop/products/1', auth: 'shop', headers: json, body: '{"name":"a\u0000b"}' }, // NUL: PostgreSQL 500
  { method: 'POST', path: '/v2/projects/shop/products/1', auth: 'shop', headers: json, body: '{"name":"\ud800"}' }, // stored mangled
  {
    method: 'POST',
    path: '/v2/projects/shop/products/1',
    auth: 'shop',
    headers: json,
    body: `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  },
  {
    method: 'POST',
    path: '/v2/projects/shop/products/1',
    auth: 'shop',
    headers: json,
    body: `{"name":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_001)}`,
  },
  {
    method: 'POST',
    path: '/v2/projects/shop/products/1',
    auth: 'shop',
    headers: json,
    body: '{"__proto__":{"price":1}}',
  },
  { method: 'POST', path: '/v2/projects/shop/products/1', auth: 'shop', headers: json, body: '{"price":1e999}' },
  {
    method: 'POST',
    path: '/v2/projects/shop/products/1',
    auth: 'shop',
    headers: json,
    body: 'x'.repeat(64 * 1024 + 1),
  },
  { method: 'GET', path: '/v2/projects/other/products/1', query: 'fetch_hidden=true', auth: 'shop', headers: {} },
  { method: 'GET', path: '/v2/projects/shop/products/charlie', auth: 'other', headers: {} },
  { method: 'POST', path: '/v2/projects/other/products/8', auth: 'shop', headers: json, body: '{"price":1}' },
  { method: 'GET', path: '/v2/projects/other/orders/1', auth: 'shop', headers: {} },
  {
    method: 'GET',
    path: '/v2/projects/shop/orders/',
    query: 'customer_email=otherbuyer%40example.com',
    auth: 'shop',
    headers: {},
  },
  {
    method: 'POST',
    path: '/v2/projects/other/orders/1',
    auth: 'shop',
    headers: json,
    body: '{"payment_status":"paid"}',
  },
  {
    method: 'POST',
    path: '/v2/projects/shop/orders/1',
    auth: 'shop',
    headers: json,
    body: '{"delivery_information":"a\u0000b"}',
  },
  { method: 'GET', path: '/v2/projects/other/users/1', auth: 'shop', headers: {} },
];

eachBackend('fuzzing every endpoint', (backend) => {
  test(
    `${RUNS} random requests: no 5xx, always the envelope, no leak, no hidden or foreign record`,
    { timeout: 180_000 },
    async (t) => {
      const { app, storage } = await testApp(t, backend, { rateLimit: { addressMax: 1e9, keyMax: 1e9 } });
      await seedShop(storage);
      const keys: Record<Auth, string | undefined> = {
        none: undefined,
        shop: (await createKey(storage, 'shop')).key,
        other: (await createKey(storage, 'other')).key,
        revoked: undefined,
        junk: 'Bearer sfk_' + 'x'.repeat(38),
      };
      const revoked = await createKey(storage, 'shop');
      await revokeKey(storage, revoked.id);
      keys.revoked = revoked.key;

      let cases = 0;
      let serverErrors = 0;
      let crossProject = 0; // requests at one project with the other project's key
      let hiddenAsked = 0; // requests for hidden records (fetch_hidden, or a hidden product's id or handle) without the owner's key
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          cases++;
          const url = r.query === undefined ? r.path : `${r.path}?${r.query}`;
          const h: Record<string, string> = { ...r.headers };
          if (r.auth === 'junk') h.authorization = keys.junk!;
          else if (keys[r.auth]) h.authorization = `Bearer ${keys[r.auth]}`;
          if (r.body === undefined) delete h['content-length'];
          const res = await app.inject({ method: r.method as 'GET', url, headers: h, payload: r.body });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode >= 500) serverErrors++;
          assert.ok(res.statusCode < 500, `5xx for ${r.method} ${url}: ${res.body.slice(0, 300)}`);
          assert.doesNotMatch(res.body, LEAK, `leak in ${r.method} ${url}`);
          if (res.statusCode >= 400 && r.method !== 'HEAD') {
            const parsed = JSON.parse(res.body);
            assert.equal(parsed.error?.status, res.statusCode);
            assert.equal(typeof parsed.error.code, 'string');
            assert.equal(typeof parsed.error.message, 'string');
            assert.match(String(res.headers['content-type']), /^application\/json/);
          }
          const projectOf = /^\/v2\/projects\/([^/?]+)\//.exec(r.path)?.[1];
          if ((projectOf === 'shop' && r.auth === 'other') || (projectOf === 'other' && r.auth === 'shop'))
            crossProject++;
          if (
            r.auth !== projectOf &&
            (/fetch_hidden=true/.test(r.query ?? '') || /\/products\/(3|charlie|8|only-other)\/?$/.test(r.path))
          )
            hiddenAsked++;
          if (res.body.includes(HIDDEN))
            assert.equal(r.auth, 'shop', `hidden product shown without the shop key: ${r.method} ${url}`);
          if (res.body.includes(OTHER_HIDDEN))
            assert.equal(r.auth, 'other', `hidden product of other shown without its key: ${r.method} ${url}`);
          for (const marker of OTHER)
            if (res.body.includes(marker)) assert.equal(projectOf, 'other', `record of "other" under ${url}`);
          for (const marker of SHOP)
            if (res.body.includes(marker)) assert.equal(projectOf, 'shop', `record of "shop" under ${url}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true, examples: EXAMPLES.map((e) => [e]) },
      );
      t.diagnostic(
        `fuzz [${backend}]: ${cases} cases, ${serverErrors} answers 5xx; ${crossProject} cross-project and ${hiddenAsked} hidden-record attempts, 0 leaks; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
      );
    },
  );
});
