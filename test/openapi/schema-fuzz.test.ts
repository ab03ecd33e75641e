import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { createKey } from '../../src/keys/repository.js';
import { testApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { seedShop } from '../support/shop.js';

// Schema-driven fuzzing of every operation of the served document, as a tool that reads only
// the document would do it (Schemathesis, RESTler; issue 29): requests are generated from each
// operation's parameter and body schemas, some of them then broken in one place, and each
// request is judged by the document itself (Ajv on the document's own schemas), not by what
// the generator meant. The rule: a request the document calls valid is never a 400 (nor a
// 5xx); one it calls invalid is always a 4xx. Together they say the document is as precise as
// the server: no rule of the server is missing from it, and none of its rules is unenforced.
//
// What a schema cannot state, and the generator therefore respects on purpose (each is said
// in the document's descriptions): `ids` and `categories` hold at most 100 distinct ids up to 2^53-1; a
// webhook URL's host must resolve to a public address (here: IP literals, with private
// addresses allowed as in every test); `in_stock`/`stock_quantity` must fit the product's
// inventory type after the update (a 400 naming that field is allowed), and a batch's items
// each name one product once, by id or handle, with a field to change; and the fuzzing key
// is never revoked or rolled by the requests it signs. Path ids are integers in the document;
// a path value that breaks its schema names nothing and is a 404, which is a 4xx as the rule
// asks. FUZZ_RUNS (default 4,000; here half of it per backend) and FUZZ_SEED as the other fuzz.

/** The fields a 400 may name for rules a schema cannot state, by operation. */
const CROSS_FIELD_RULES: Record<string, RegExp> = {
  updateProduct: /^(in_stock|stock_quantity)$/,
  updateProducts: /^products\[\d+\](\.(id|handle|in_stock|stock_quantity))?$/,
  listProducts: /^(q|order|price_min|price_max|price_ranges)$/,
  exportProducts: /^(q|order|price_min|price_max)$/,
  createProductsCsvLink: /^(q|order|price_min|price_max)$/,
};

const RUNS = Math.max(200, Math.round(Number(process.env.FUZZ_RUNS ?? 4000) / 2));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const DOC = 'openapi.json';
const MAX_ID = Number.MAX_SAFE_INTEGER;

type Json = Record<string, any>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Json;
}
interface Operation {
  method: string;
  template: string;
  operationId: string;
  parameters: Parameter[];
  /** JSON pointer of each parameter's schema, and of the body schema, inside the document */
  pointer: string;
  body?: Json;
}
interface Generated {
  operation: Operation;
  path: Record<string, string>;
  query: Array<[string, string]>;
  body?: unknown;
  /** what the generator broke, for the failure message only; the verdict is the document's */
  broke?: string;
}

const escape = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

function operationsOf(document: Json): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries<Json>(document.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      out.push({
        method: method.toUpperCase(),
        template,
        operationId: op.operationId,
        parameters: (op.parameters ?? []).filter((p: Parameter) => p.in !== 'header'),
        pointer: `#/paths/${escape(template)}/${method}`,
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return out;
}

/** A fast-check arbitrary of the values a JSON schema (of the document) allows. */
function arbitraryOf(schema: Json, document: Json): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryOf(resolve(document, schema.$ref), document);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((o: Json) => arbitraryOf(o, document)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const lo = schema.minimum ?? -1000;
      const hi = schema.maximum ?? 1000;
      // The whole range, not a filter of maxSafeNat: inside arrays fast-check's bias toward small
      // values fades, and a filter keeping 0..100000 of 0..2^53 then retries without end.
      return fc.oneof(
        fc.integer({ min: lo, max: Math.min(hi, lo + 300) }),
        fc.constantFrom(lo, hi),
        fc.integer({ min: Math.max(lo, Number.MIN_SAFE_INTEGER), max: Math.min(hi, Number.MAX_SAFE_INTEGER) }),
      );
    }
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? 60;
      const fits = (s: string) => s.length >= min && s.length <= max;
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
      if (schema.format === 'email') return fc.emailAddress().filter(fits);
      return fc.string({ minLength: min, maxLength: Math.min(max, 60) });
    }
    case 'array': {
      const items = arbitraryOf(schema.items, document);
      const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) };
      return schema.uniqueItems
        ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) })
        : fc.array(items, constraints);
    }
    case 'object': {
      const properties = Object.fromEntries(
        Object.entries<Json>(schema.properties ?? {}).map(([name, s]) => [name, arbitraryOf(s, document)]),
      );
      const record = fc.record(properties, { requiredKeys: schema.required ?? [] });
      return schema.minProperties ? record.filter((o) => Object.keys(o).length >= schema.minProperties) : record;
    }
  }
  return fc.jsonValue();
}

function resolve(document: Json, ref: string): Json {
  return ref
    .slice(2)
    .split('/')
    .reduce((node, part) => node[part.replaceAll('~1', '/').replaceAll('~0', '~')], document);
}

/** Values of what no schema can say (see the top of this file), by parameter or field name. */
function semanticArbitrary(name: string, ownKeyId: number): fc.Arbitrary<unknown> | undefined {
  switch (name) {
    case 'project_id':
      return fc.oneof({ weight: 9, arbitrary: fc.constant('shop') }, { weight: 1, arbitrary: fc.constant('other') });
    case 'ids':
    case 'categories':
      return fc
        .array(fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(MAX_ID)), { minLength: 1, maxLength: 100 })
        .map((ids) => ids.join(','));
    case 'url':
      return fc
        .tuple(
          fc.constantFrom('http', 'https', 'HTTPS'),
          fc.constantFrom('127.0.0.1', '127.0.0.1:9', '[::1]:4000'),
          fc.constantFrom('', '/', '/hooks', '/a/b?x=1'),
        )
        .map(([scheme, host, rest]) => `${scheme}://${host}${rest}`);
    case 'key_id':
      return fc.oneof(fc.integer({ min: 1, max: 30 }), fc.maxSafeNat()).filter((id) => id !== ownKeyId && id > 0);
  }
  return undefined;
}

/** A value that breaks (or may break: the document judges) the schema of one part. */
const junk = fc.oneof(
  fc.constantFrom('', 'abc', '-1', '0', '1.5', '1e3', 'true', 'null', ' 1', '9007199254740993', '😀', 'a,b', ','),
  fc.string({ maxLength: 20 }),
);
const junkJson = fc.oneof(
  junk,
  fc.constantFrom<unknown>(null, -1, 1.5, 2 ** 53, true, [], {}, ['x'], 'x'.repeat(3000)),
);

function requestOf(operation: Operation, document: Json, ownKeyId: number): fc.Arbitrary<Generated> {
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  const optional = new Set<string>();
  for (const p of operation.parameters) {
    const key = `${p.in}:${p.name}`;
    parts[key] = semanticArbitrary(p.name, ownKeyId) ?? arbitraryOf(p.schema, document);
    if (!p.required) optional.add(key);
  }
  let body: fc.Arbitrary<unknown> | undefined;
  if (operation.body) {
    const schema = operation.body.$ref ? resolve(document, operation.body.$ref) : operation.body;
    const fields = Object.fromEntries(
      Object.entries<Json>(schema.properties ?? {}).map(([name, s]) => [
        name,
        semanticArbitrary(name, ownKeyId) ?? arbitraryOf(s, document),
      ]),
    );
    const record = fc.record(fields, { requiredKeys: schema.required ?? [] });
    body = schema.minProperties ? record.filter((o) => Object.keys(o).length >= schema.minProperties) : record;
  }
  const present = fc.record(
    Object.fromEntries(Object.keys(parts).map((k) => [k, optional.has(k) ? fc.boolean() : fc.constant(true)])),
  );
  // 0: as generated; otherwise one part broken.
  const mutation = fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.constantFrom(
          ...Object.keys(parts),
          'query:unknown',
          ...(body ? ['body:missing', 'body:extra', 'body:field'] : []),
        ),
        junkJson,
        fc.nat(),
      ),
    },
  );
  return fc
    .record({ values: fc.record(parts), present, body: body ?? fc.constant(undefined), mutation })
    .map(({ values, present, body, mutation }) => {
      const out: Generated = { operation, path: {}, query: [], body };
      const set = (key: string, value: unknown) => {
        const [where, name] = key.split(':') as ['path' | 'query', string];
        if (where === 'path') out.path[name] = String(value);
        else out.query.push([name, String(value)]);
      };
      const broken = mutation?.[0];
      for (const key of Object.keys(parts)) {
        // An empty path segment makes the URL another operation's (/users/ for getUser), and so
        // do `.` and `..`, which URLs resolve as dot segments even encoded: broken path values
        // are never one of them.
        if (key === broken) {
          const segment = key.startsWith('path:') && ['', '.', '..'].includes(String(mutation![1]));
          set(key, segment ? '-' : mutation![1]);
        } else if (present[key]) set(key, values[key]);
      }
      if (broken === 'query:unknown') out.query.push(['zzz', '1']);
      if (broken?.startsWith('body:') && body && typeof body === 'object') {
        const fields = { ...(body as Json) };
        const names = Object.keys(fields);
        if (broken === 'body:missing' && names.length) delete fields[names[mutation![2] % names.length]];
        if (broken === 'body:extra') fields.zzz = 1;
        if (broken === 'body:field') {
          const all = Object.keys(
            (operation.body?.$ref ? resolve(document, operation.body.$ref) : operation.body)!.properties ?? {},
          );
          if (all.length) fields[all[mutation![2] % all.length]] = mutation![1];
        }
        out.body = fields;
      }
      if (broken) out.broke = broken;
      return out;
    });
}

/** Turns a path or query value back into what the document's schema judges. */
function typed(value: string, schema: Json, document: Json): unknown {
  const s = schema.$ref ? resolve(document, schema.$ref) : schema;
  if (s.type === 'integer' && /^-?[0-9]+$/.test(value)) return Number(value);
  if (s.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

class Judge {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  private readonly compiled = new Map<string, ValidateFunction>();
  constructor(private readonly document: Json) {
    addFormats.default(this.ajv);
    this.ajv.addSchema(document, DOC);
  }
  private check(pointer: string, value: unknown): boolean {
    let validate = this.compiled.get(pointer);
    if (!validate) this.compiled.set(pointer, (validate = this.ajv.compile({ $ref: `${DOC}${pointer}` })));
    return validate(value);
  }
  /** Why the document calls the request invalid, or undefined when it calls it valid. */
  invalid(r: Generated): string | undefined {
    const { operation } = r;
    const given = new Map(r.query);
    for (const [name] of r.query) {
      if (r.query.filter(([n]) => n === name).length > 1) return `${name} given twice`;
      if (!operation.parameters.some((p) => p.in === 'query' && p.name === name)) return `unknown parameter ${name}`;
    }
    for (const [i, p] of (
      (this.document.paths[operation.template][operation.method.toLowerCase()].parameters ?? []) as Parameter[]
    ).entries()) {
      if (p.in === 'header') continue;
      const value = p.in === 'path' ? r.path[p.name] : given.get(p.name);
      if (value === undefined) {
        if (p.required) return `${p.name} missing`;
        continue;
      }
      if (!this.check(`${operation.pointer}/parameters/${i}/schema`, typed(value, p.schema, this.document)))
        return `${p.in} ${p.name}=${JSON.stringify(value).slice(0, 60)}`;
    }
    // ids and categories: what their descriptions add to their patterns (a pattern cannot count
    // distinct values, nor bound a number).
    for (const name of ['ids', 'categories']) {
      const list = given.get(name);
      if (list === undefined || !/^[0-9,]+$/.test(list)) continue;
      const values = new Set(list.split(',').map(Number));
      if (values.size > 100 || [...values].some((n) => n > MAX_ID)) return `${name}: over 100 distinct, or past 2^53-1`;
    }
    if (operation.body && !this.check(`${operation.pointer}/requestBody/content/application~1json/schema`, r.body))
      return `body ${JSON.stringify(r.body).slice(0, 120)}`;
    return undefined;
  }
}

eachBackend('schema-driven fuzzing of every operation of the document', (backend) => {
  test(
    `${RUNS} requests over every operation: valid ones never 400, invalid ones always 4xx, none 5xx`,
    { timeout: 240_000 },
    async (t) => {
      const { app, storage } = await testApp(t, backend, {
        rateLimit: false,
        webhooks: { allowPrivate: true },
      });
      await seedShop(storage);
      const own = await createKey(storage, 'shop', 'fuzz');
      const document = JSON.parse((await app.inject('/v2/openapi.json')).body) as Json;
      const judge = new Judge(document);
      const operations = operationsOf(document);
      // The admin API's three meet a project key here: 403, never a 5xx (test/shops/ tries them with an admin key).
      assert.equal(operations.length, 40, 'every operation of the document is fuzzed');

      const tally = new Map<string, { valid: number; invalid: number }>();
      const requests = fc.oneof(...operations.map((o) => requestOf(o, document, own.id)));
      await fc.assert(
        fc.asyncProperty(requests, async (r) => {
          const { operation } = r;
          let url = operation.template.replace(/\{(\w+)\}/g, (_, name: string) =>
            encodeURIComponent(r.path[name] ?? ''),
          );
          if (r.query.length) url += `?${new URLSearchParams(r.query)}`;
          const headers: Record<string, string> = { authorization: `Bearer ${own.key}` };
          if (operation.body) headers['content-type'] = 'application/json';
          const res = await app.inject({
            method: operation.method as 'GET',
            url,
            headers,
            payload: operation.body ? JSON.stringify(r.body ?? {}) : undefined,
          });
          const why = judge.invalid(r);
          const count = tally.get(operation.operationId) ?? { valid: 0, invalid: 0 };
          count[why ? 'invalid' : 'valid']++;
          tally.set(operation.operationId, count);
          const said = `${operation.operationId} ${operation.method} ${url} ${JSON.stringify(r.body) ?? ''} (broke ${r.broke ?? 'nothing'}) -> ${res.statusCode} ${res.body.slice(0, 300)}`;
          assert.ok(res.statusCode < 500, `5xx: ${said}`);
          if (why) {
            assert.ok(res.statusCode >= 400, `the document calls it invalid (${why}), the server accepted it: ${said}`);
          } else if (res.statusCode === 400) {
            // The rules a schema does not state: the inventory fields against the type the product
            // will have; in a batch, also each item's product named once, by id or handle, with
            // something to change (src/resources/products/batch-update.ts).
            // Shopper search (CONTRACT 17): at most 10 words in `q`, `relevance` only first and
            // only with `q`, `price_min` not above `price_max`, `price_ranges` only with
            // `facets=price` and each range's start below its end (docs/API.md says each).
            const fields: string[] = (JSON.parse(res.body) as Json).error.details.map((d: Json) => d.field);
            const allowed = CROSS_FIELD_RULES[operation.operationId];
            assert.ok(
              allowed !== undefined && fields.every((field) => allowed.test(field)),
              `the document calls it valid, the server refused it: ${said}`,
            );
          }
          if (res.statusCode >= 400 && operation.method !== 'HEAD')
            assert.equal((JSON.parse(res.body) as Json).error?.status, res.statusCode, said);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      // Every operation was tried both ways, or the test proves less than it says.
      for (const operation of operations) {
        const count = tally.get(operation.operationId);
        assert.ok(count && count.valid > 0, `${operation.operationId}: no valid request was made`);
        if (operation.parameters.length > 1 || operation.body)
          assert.ok(count.invalid > 0, `${operation.operationId}: no invalid request was made`);
      }
      t.diagnostic(`schema fuzz [${backend}]: ${JSON.stringify(Object.fromEntries(tally))}`);
    },
  );
});
