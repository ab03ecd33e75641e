import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { generate } from '../../src/generate/generate.js';
import { ImportError, importDocument, importFile } from '../../src/import/import.js';
import { PRODUCT_CSV_COLUMNS } from '../../src/resources/products/csv-columns.js';
import { resourceOfType } from '../../src/resources/registry.js';
import { deleteRecords } from '../../src/writes/delete-records.js';
import { writeProject } from '../../src/writes/write-project.js';
import { suiteApp } from '../support/app.js';
import { eachBackend } from '../support/each-backend.js';
import { call } from '../support/request.js';

// What an in-memory search index will rely on (docs/ARCHITECTURE.md, "What the change log
// guarantees"): every write that changes a product's searched or filtered facts (name,
// description, sku, price, in_stock as shown, stock_quantity, inventory_type, show_in_store,
// category links, created_at, the currency it shows) leaves a change-log row naming that
// product, and every change of the category tree leaves a category row. Random writes go
// through the public paths (the single and batch updates over HTTP; imports of JSON, NDJSON
// and CSV, merged and replaced, with deletions; `storefront delete`'s deleteRecords; generate;
// a currency change) and after each the facts are compared with those before it.
//
// The log is read from its table (`changes`, seq > the version before the write), as the
// index will: it must see hidden products as products, which the public feed turns into
// deletes. The table has no summary row: every row names one record (a currency change
// writes one row per product). A summary that names a type without ids exists only in a
// write's in-process summary (WriteSummary, past 1,000 records); it would count as naming
// every record of the type, and the test counts how often the log names every product.

const P = 'facts';
const WORDS = ['linen', 'shirt', 'wool', 'scarf', 'oxford', 'knife', 'café', 'blue'];
const CATEGORIES = 10;
const PRODUCTS = 16;

type Fields = Record<string, unknown>;
interface CategoryChange {
  id: number;
  parent: number | null;
  remove: boolean;
}
type Op =
  | { k: 'update'; id: number; fields: Fields }
  | { k: 'batch'; items: { id: number; fields: Fields }[] }
  | {
      k: 'import';
      format: 'json' | 'ndjson';
      products: Fields[];
      deletions: number[];
      /** the records name their products by handle alone */
      byHandle: boolean;
      /** a category change in the same file */
      category: CategoryChange | null;
    }
  | { k: 'csv'; replace: boolean; columns: string[]; rows: Fields[] }
  | ({ k: 'category' } & CategoryChange)
  | { k: 'delete'; type: 'product' | 'category'; ids: number[] }
  | { k: 'currency'; currency: string }
  | { k: 'generate' };

const id = fc.integer({ min: 1, max: PRODUCTS });
const name = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const fieldArb = fc.record(
  {
    name,
    price: fc.integer({ min: 0, max: 5000 }),
    inventory_type: fc.constantFrom('simple', 'advanced'),
    in_stock: fc.boolean(),
    stock_quantity: fc.integer({ min: 0, max: 3 }),
  },
  { requiredKeys: [] },
);
const stockArb = fc.record({ in_stock: fc.boolean(), stock_quantity: fc.integer({ min: 0, max: 3 }) });
const record = fc.record(
  {
    id,
    name,
    price: fc.integer({ min: 0, max: 5000 }),
    description: fc.option(name, { nil: undefined }),
    sku: fc.option(fc.constantFrom('A-1', 'B-2', null), { nil: undefined }),
    inventory_type: fc.option(fc.constantFrom('simple', 'advanced'), { nil: undefined }),
    in_stock: fc.option(fc.boolean(), { nil: undefined }),
    stock_quantity: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    show_in_store: fc.option(fc.boolean(), { nil: undefined }),
    category_ids: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: CATEGORIES }), { maxLength: 3 }), {
      nil: undefined,
    }),
    created_at: fc.option(fc.integer({ min: 1000, max: 1010 }), { nil: undefined }),
  },
  { requiredKeys: ['id', 'name', 'price'] },
);
/** The CSV columns of the facts (every column but those that name the product or are no fact). */
const CSV_FIELDS = PRODUCT_CSV_COLUMNS.filter(
  (c) => !['id', 'handle', 'currency', 'custom_sort', 'images', 'updated_at'].includes(c),
);
const categoryChange: fc.Arbitrary<CategoryChange> = fc.record({
  id: fc.integer({ min: 1, max: CATEGORIES }),
  parent: fc.option(fc.integer({ min: 1, max: CATEGORIES }), { nil: null }),
  remove: fc.boolean(),
});
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ k: fc.constant('update' as const), id, fields: fieldArb }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('update' as const), id, fields: stockArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('batch' as const),
      items: fc.uniqueArray(fc.record({ id, fields: fieldArb }), { minLength: 1, maxLength: 3, selector: (i) => i.id }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('import' as const),
      format: fc.constantFrom('json' as const, 'ndjson' as const),
      products: fc.uniqueArray(record, { maxLength: 3, selector: (r) => r.id }),
      deletions: fc.uniqueArray(id, { maxLength: 2 }),
      byHandle: fc.boolean(),
      category: fc.option(categoryChange, { nil: null }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('csv' as const),
      replace: fc.boolean(),
      columns: fc.subarray(CSV_FIELDS),
      rows: fc.uniqueArray(record, { minLength: 1, maxLength: 3, selector: (r) => r.id }),
    }),
  },
  {
    weight: 3,
    arbitrary: categoryChange.map((c) => ({ k: 'category' as const, ...c })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('delete' as const),
      type: fc.constantFrom('product' as const, 'category' as const),
      ids: fc.uniqueArray(fc.integer({ min: 1, max: CATEGORIES }), { minLength: 1, maxLength: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('currency' as const), currency: fc.constantFrom('USD', 'EUR') }) },
  { weight: 1, arbitrary: fc.constant({ k: 'generate' as const }) },
);

interface Facts {
  version: number;
  products: Map<number, string>;
  tree: string;
  categories: Set<number>;
  /** each product's inventory_type, for updates the API accepts */
  types: Map<number, string>;
}

eachBackend('every change of a product fact reaches the change log', (backend) => {
  const base = suiteApp(backend, async (t) => {
    await importDocument(t.storage.db, {
      project: { id: P, name: 'Facts', currency: 'USD' },
      categories: Array.from({ length: CATEGORIES }, (_, i) => ({
        id: i + 1,
        handle: `c-${i + 1}`,
        name: `C ${i + 1}`,
        parent_id: i < 3 ? null : 1 + (i % 3),
      })),
      products: Array.from({ length: PRODUCTS }, (_, i) => ({
        id: i + 1,
        handle: `p-${i + 1}`,
        name: WORDS[i % WORDS.length],
        price: 100 * i,
        inventory_type: i % 3 === 0 ? 'advanced' : 'simple',
        stock_quantity: i % 2,
        category_ids: [1 + (i % CATEGORIES)],
      })),
    });
  });
  let key = '';
  let refused = 0;
  let dir = '';
  before(async () => {
    key = await base.key(P);
    dir = await mkdtemp(join(tmpdir(), 'facts-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function facts(): Promise<Facts> {
    const db = base.storage.db;
    const project = await db
      .selectFrom('projects')
      .select(['data_version', 'currency'])
      .where('id', '=', P)
      .executeTakeFirstOrThrow();
    const rows = await db.selectFrom('products').selectAll().where('project_id', '=', P).execute();
    const links = await db.selectFrom('product_categories').selectAll().where('project_id', '=', P).execute();
    const cats = await db
      .selectFrom('categories')
      .select(['id', 'parent_id'])
      .where('project_id', '=', P)
      .orderBy('id')
      .execute();
    const linked = new Map<number, number[]>();
    for (const l of links)
      linked.set(Number(l.product_id), [...(linked.get(Number(l.product_id)) ?? []), l.category_id]);
    const products = new Map<number, string>();
    const types = new Map<number, string>();
    for (const r of rows) {
      types.set(Number(r.id), r.inventory_type);
      const shown = r.inventory_type === 'advanced' ? Number(r.stock_quantity) > 0 : Number(r.in_stock) === 1;
      const cs = (linked.get(Number(r.id)) ?? []).map(Number).sort((a, b) => a - b);
      products.set(
        Number(r.id),
        JSON.stringify([
          r.name,
          r.description,
          r.sku,
          Number(r.price),
          shown,
          Number(r.stock_quantity),
          r.inventory_type,
          Number(r.show_in_store),
          cs,
          Number(r.created_at),
          project.currency,
        ]),
      );
    }
    const tree = JSON.stringify(cats.map((c) => [Number(c.id), c.parent_id === null ? null : Number(c.parent_id)]));
    return {
      version: Number(project.data_version),
      products,
      tree,
      categories: new Set(cats.map((c) => Number(c.id))),
      types,
    };
  }

  async function logged(from: number, to: number) {
    const rows = await base.storage.db
      .selectFrom('changes')
      .select(['type', 'id', 'action'])
      .where('project_id', '=', P)
      .where('seq', '>', from)
      .where('seq', '<=', to)
      .execute();
    return rows.map((r) => ({ type: r.type, id: Number(r.id), action: r.action }));
  }

  const post = (method: 'POST' | 'PATCH', path: string, body: unknown) =>
    call(base.app, method, `/v2/projects/${P}${path}`, { body, headers: { authorization: `Bearer ${key}` } });

  /** Runs one write; a write the API or the importer refuses writes nothing, and that is checked too. */
  async function apply(o: Op, now: Facts): Promise<void> {
    const db = base.storage.db;
    const links = (r: Fields) =>
      r.category_ids === undefined
        ? {}
        : { category_ids: (r.category_ids as number[]).filter((c) => now.categories.has(c)) };
    const full = (r: Fields): Fields => ({ ...r, handle: `p-${r.id as number}`, ...links(r) });
    const quiet = async (p: Promise<unknown>): Promise<void> => {
      await p.then(
        () => undefined,
        (e: Error) => {
          assert.ok(e instanceof ImportError, String(e));
          refused++;
        },
      );
    };
    // The inventory rules (in_stock for a simple product, stock_quantity for an advanced one),
    // so that most updates are accepted; a stock-only update is the in-place kind.
    const valid = (id: number, fields: Fields) => {
      const { in_stock, stock_quantity, ...rest } = fields;
      const type = (fields.inventory_type as string | undefined) ?? now.types.get(id);
      return { ...rest, ...(type === 'advanced' ? { stock_quantity } : { in_stock }) };
    };
    const categoryRecord = (c: CategoryChange) =>
      c.remove
        ? { id: c.id, deleted: true }
        : {
            id: c.id,
            handle: `c-${c.id}`,
            name: `C ${c.id}`,
            parent_id: now.categories.has(c.parent!) ? c.parent : null,
          };
    switch (o.k) {
      case 'update':
        return void (await post('POST', `/products/${o.id}`, valid(o.id, o.fields)));
      case 'batch':
        return void (await post('PATCH', '/products/', {
          products: o.items.map((i) => ({ id: i.id, ...valid(i.id, i.fields) })),
        }));
      case 'import': {
        const written = o.products.map(full).map((r) => {
          if (o.byHandle) delete r.id;
          return r;
        });
        const products = [...written, ...o.deletions.map((d) => ({ id: d, deleted: true }))];
        const categories = o.category ? [categoryRecord(o.category)] : [];
        const project = { id: P, name: 'Facts', currency: (await currencyOf()) ?? 'USD' };
        if (o.format === 'json') return quiet(importDocument(db, { project, categories, products }));
        const path = join(dir, 'f.ndjson');
        const lines = [
          { type: 'project', ...project },
          ...categories.map((c) => ({ type: 'category', ...c })),
          ...products.map((p) => ({ type: 'product', ...p })),
        ];
        await writeFile(path, lines.map((l) => JSON.stringify(l)).join('\n'));
        return quiet(importFile(db, path, { project: P }));
      }
      case 'csv': {
        const columns = o.replace ? ['id', 'handle', 'name', 'price', ...o.columns] : ['id', ...o.columns];
        const header = [...new Set(columns)];
        const cell = (v: unknown) =>
          v === undefined || v === null
            ? ''
            : Array.isArray(v)
              ? v.join(';')
              : typeof v === 'string'
                ? `"${v.replaceAll('"', '""')}"`
                : `${v as number | boolean}`;
        const rows = o.rows.map(full).map((r: Fields) => header.map((c) => cell(r[c])).join(','));
        const path = join(dir, 'f.csv');
        await writeFile(path, [header.join(','), ...rows].join('\n'));
        return quiet(importFile(db, path, { project: P, replace: o.replace }));
      }
      case 'category': {
        const category = categoryRecord(o);
        return quiet(
          importDocument(db, {
            project: { id: P, name: 'Facts', currency: await currencyOf() },
            categories: [category],
          }),
        );
      }
      case 'delete':
        await writeProject(base.storage, P, (ctx) => deleteRecords(ctx, resourceOfType(o.type)!, o.ids), {
          kind: 'batch',
        });
        return;
      case 'currency':
        return quiet(importDocument(db, { project: { id: P, name: 'Facts', currency: o.currency } }));
      case 'generate':
        await generate(base.storage, P, { products: 2, orders: 0, users: 0 });
    }
  }

  async function currencyOf(): Promise<string | undefined> {
    const row = await base.storage.db.selectFrom('projects').select('currency').where('id', '=', P).executeTakeFirst();
    return row?.currency;
  }

  test('random writes: each changed product and each tree change is named by the log', async (t) => {
    const seen = { writes: 0, changedProducts: 0, allProducts: 0, treeChanges: 0 };
    const run = await fc.check(
      fc.asyncProperty(fc.array(op, { minLength: 50, maxLength: 50 }), async (ops) => {
        for (const o of ops) {
          const before = await facts();
          await apply(o, before);
          const now = await facts();
          const entries = await logged(before.version, now.version);
          const named = new Set(entries.filter((e) => e.type === 'product').map((e) => e.id));
          const what = `${JSON.stringify(o)} (versions ${before.version} → ${now.version})`;
          if (now.version > before.version) seen.writes++;
          if (now.products.size > 0 && [...now.products.keys()].every((p) => named.has(p))) seen.allProducts++;
          for (const p of new Set([...before.products.keys(), ...now.products.keys()])) {
            if (before.products.get(p) === now.products.get(p)) continue;
            seen.changedProducts++;
            assert.ok(named.has(p), `product ${p} changed but the log does not name it: ${what}`);
            const action = entries.find((e) => e.type === 'product' && e.id === p)!.action;
            assert.equal(action, now.products.has(p) ? 'upsert' : 'delete', `product ${p}: ${what}`);
          }
          if (before.tree !== now.tree) {
            seen.treeChanges++;
            assert.ok(
              entries.some((e) => e.type === 'category'),
              `the category tree changed but the log names no category: ${what}`,
            );
          }
        }
      }),
      { numRuns: Number(process.env.FACT_RUNS ?? 2), endOnFailure: true },
    );
    // The first failing write's message, not fast-check's whole list of operations.
    if (run.failed) throw run.errorInstance;
    // The operations must have exercised what they claim to.
    assert.ok(seen.changedProducts > 20 && seen.treeChanges > 3, JSON.stringify(seen));
    t.diagnostic(`[${backend}] ${JSON.stringify({ ...seen, refused })}`);
  });
  test('past 1,000 records, where a summary lists only the type, the log still names each product', async () => {
    const before = await facts();
    const products = Array.from({ length: 1_100 }, (_, i) => ({
      id: 1_000 + i,
      handle: `many-${i}`,
      name: WORDS[i % WORDS.length],
      price: i,
    }));
    const project = { id: P, name: 'Facts', currency: await currencyOf() };
    await importDocument(base.storage.db, { project, products });
    const now = await facts();
    const named = (await logged(before.version, now.version)).filter((e) => e.type === 'product');
    assert.equal(now.version, before.version + 1);
    assert.deepEqual(
      named.map((e) => e.id).sort((a, b) => a - b),
      products.map((p) => p.id),
    );
  });
});
