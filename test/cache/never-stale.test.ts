import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importDocument } from '../../src/import/import.js';
import { createKey } from '../../src/keys/repository.js';
import { PRODUCTS, PROJECT, seedDocument } from '../changes/catalog.js';
import { testApp } from '../support/app.js';
import { freshDatabase } from '../support/pg-database.js';
import { startServe } from '../support/processes.js';
import { bearer, call } from '../support/request.js';
import { PG_SKIP, backends } from '../support/storage.js';

// A read that starts after a write was acknowledged never answers the state before it, from
// any cache, in any process. A `storefront serve` process takes product and order updates
// over HTTP (two writers at once); this process imports new products through a storage of
// its own; two apps, each on its own storage of the same database (two processes' worth of
// state), read all the while with their caches on: single products, `ids=`, lists and their
// totals, a search total, `q` and lists and facets by stock (CONTRACT 17), the orders list and the change feed. Every value written only
// grows (prices and delivery notes from one counter, products renamed into the search, new
// products), so each read is checked against what was acknowledged before it began.
//
// The guards run the same with the writer process's per-type versions broken on purpose
// (STOREFRONT_BROKEN_TYPE_VERSIONS, src/writes/type-versions.ts), or with the reading apps'
// record cache keyed without each product's own version (STOREFRONT_BROKEN_RECORD_VERSIONS,
// src/cache/record-cache.ts), and must see stale answers: proof that this test fails when
// either invalidation is broken.

const WRITE_MS = 2500;
// What a run must reach to mean something (the writer goes on past WRITE_MS until it does).
const MIN_READS = 100;
const MIN_WRITES = 20;
const P = `/v2/projects/${PROJECT}`;
/** visible products of the seed catalog (test/changes/catalog.ts hides every seventh) */
const VISIBLE = Array.from({ length: PRODUCTS }, (_, i) => i + 1).filter((id) => (id - 1) % 7 !== 0);
const ORDERS = 30;
const TERM = 'zzfresh';

interface Acked {
  prices: Map<number, number>;
  /** stock quantities (a stock update leaves the lists' version: only its own product's answers change) */
  stock: Map<number, number>;
  notes: Map<number, number>;
  renamed: number;
  imported: number;
}

async function database(t: TestContext, backend: 'sqlite' | 'postgres'): Promise<string> {
  if (backend === 'postgres') return (await freshDatabase(t, 'sf_stale')).url;
  const dir = mkdtempSync(join(tmpdir(), 'sf-stale-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return `sqlite:${join(dir, 'shop.db')}`;
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];

type Broken = 'nothing' | 'type versions' | 'record versions' | 'answer reuse';

async function run(t: TestContext, backend: 'sqlite' | 'postgres', broken: Broken) {
  const url = await database(t, backend);
  const storages = [connect(url), connect(url), connect(url)];
  t.after(() => Promise.all(storages.map((s) => s.close())));
  const [a, b, importer] = storages;
  await migrateToLatest(a.db);
  await importDocument(a.db, seedDocument());
  const { key } = await createKey(a, PROJECT, 'stale');
  const server = await startServe(t, {
    DATABASE_URL: url,
    STOREFRONT_BROKEN_TYPE_VERSIONS: broken === 'type versions' ? '1' : '0',
  });
  const caches = { brokenRecordVersions: broken === 'record versions', brokenAnswerReuse: broken === 'answer reuse' };
  const apps = [
    (await testApp(t, backend, { storage: a, rateLimit: false, caches })).app,
    (await testApp(t, backend, { storage: b, rateLimit: false, caches })).app,
  ];
  const get = async (app: FastifyInstance, path: string) => {
    const r = await call(app, 'GET', `${P}${path}`, { headers: bearer(key) });
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    return r.body;
  };
  const baseTotal = (await get(apps[0], '/products/')).meta.total as number;

  // What was acknowledged: each value is recorded once its write has answered.
  const acked: Acked = { prices: new Map(), stock: new Map(), notes: new Map(), renamed: 0, imported: 0 };
  let counter = 1000;
  let reads = 0;
  let writing = true;
  const unrenamed = [...VISIBLE];
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}${P}${path}`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    assert.equal(res.status, 200, path);
  };
  // Each writer has records of its own (ids of one parity): two writes of one record in flight
  // at once may commit in the other order than they are answered, and the smaller value would
  // then be the stored one after the larger was acknowledged.
  const writer = async (parity: number) => {
    const mine = VISIBLE.filter((id) => id % 2 === parity);
    const myOrders = Array.from({ length: ORDERS }, (_, i) => i + 1).filter((id) => id % 2 === parity);
    // At least WRITE_MS, and longer (up to four times) on a loaded machine until enough happened.
    const end = Date.now() + WRITE_MS;
    const enough = () => reads > MIN_READS && counter - 1000 > MIN_WRITES;
    while (Date.now() < end || (!enough() && Date.now() < end + 3 * WRITE_MS)) {
      const value = ++counter;
      // Reused answers go stale only while nothing else changes their key: stock updates alone.
      const roll = broken === 'answer reuse' ? 0.5 : Math.random();
      if (roll < 0.4) {
        const id = pick(mine);
        await post(`/products/${id}`, { price: value });
        acked.prices.set(id, Math.max(acked.prices.get(id) ?? 0, value));
      } else if (roll < 0.6) {
        const id = pick(mine);
        await post(`/products/${id}`, { inventory_type: 'advanced', stock_quantity: value });
        acked.stock.set(id, Math.max(acked.stock.get(id) ?? 0, value));
      } else if (roll < 0.7 && unrenamed.length > 0) {
        const id = unrenamed.splice(Math.floor(Math.random() * unrenamed.length), 1)[0];
        await post(`/products/${id}`, { name: `${TERM} ${id}` });
        acked.renamed++;
      } else {
        const id = pick(myOrders);
        await post(`/orders/${id}`, { delivery_information: String(value) });
        acked.notes.set(id, Math.max(acked.notes.get(id) ?? 0, value));
      }
    }
  };
  const importing = async () => {
    for (let id = 10_000; writing && broken !== 'answer reuse'; id++) {
      await importDocument(importer.db, {
        project: seedDocument().project,
        products: [{ id, handle: `new-${id}`, name: `New ${id}`, price: 1 }],
      });
      acked.imported++;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  // Each read is checked against what was acknowledged before it began.
  const stale: string[] = [];
  const olderPrice = (floor: Acked, what: string, p: { id: number; price: number; stock_quantity?: number }) => {
    const least = floor.prices.get(p.id) ?? 0;
    if (p.price < least) stale.push(`${what}: product ${p.id} price ${p.price}, acknowledged ${least}`);
    const stock = floor.stock.get(p.id);
    if (stock !== undefined && !((p.stock_quantity ?? 0) >= stock))
      stale.push(`${what}: product ${p.id} stock ${p.stock_quantity}, acknowledged ${stock}`);
  };
  const olderNote = (floor: Acked, what: string, o: { id: number; delivery_information: string | null }) => {
    const least = floor.notes.get(o.id) ?? 0;
    if (Number(o.delivery_information ?? 0) < least)
      stale.push(`${what}: order ${o.id} note ${o.delivery_information}, acknowledged ${least}`);
  };
  const readers = async (app: FastifyInstance) => {
    while (writing) {
      const floor: Acked = {
        ...acked,
        prices: new Map(acked.prices),
        stock: new Map(acked.stock),
        notes: new Map(acked.notes),
      };
      const roll = Math.floor(Math.random() * 8);
      reads++;
      if (roll === 0) {
        const id = pick(VISIBLE);
        olderPrice(floor, 'single', await get(app, `/products/${id}`));
      } else if (roll === 1) {
        const ids = Array.from({ length: 10 }, () => pick(VISIBLE));
        for (const p of (await get(app, `/products/?perpage=100&ids=${ids.join(',')}`)).data)
          olderPrice(floor, 'ids=', p);
      } else if (roll === 2) {
        const list = await get(app, `/products/?perpage=100&order=price_desc`);
        for (const p of list.data) olderPrice(floor, 'list', p);
        if (list.meta.total < baseTotal + floor.imported)
          stale.push(`list total ${list.meta.total}, acknowledged ${baseTotal + floor.imported}`);
      } else if (roll === 3) {
        const total = (await get(app, `/products/?search=${TERM}`)).meta.total;
        if (total < floor.renamed) stale.push(`search total ${total}, acknowledged ${floor.renamed}`);
      } else if (roll === 6) {
        // Shopper search (CONTRACT 17): `q` finds every acknowledged rename, with a typo.
        const total = (await get(app, `/products/?q=${TERM.slice(0, 3)}x${TERM.slice(4)}&facets=category`)).meta.total;
        if (total < floor.renamed) stale.push(`q total ${total}, acknowledged ${floor.renamed}`);
      } else if (roll === 7) {
        // A stock update leaves the lists' version; lists and facets that read stock still follow it.
        const list = await get(app, `/products/?inventory_type=advanced&in_stock=true&facets=in_stock,inventory_type`);
        if (list.meta.total < floor.stock.size)
          stale.push(`in_stock total ${list.meta.total}, acknowledged ${floor.stock.size}`);
        if (list.meta.facets.in_stock.true < floor.stock.size)
          stale.push(`in_stock facet ${list.meta.facets.in_stock.true}, acknowledged ${floor.stock.size}`);
        if (list.meta.facets.inventory_type.advanced < floor.stock.size)
          stale.push(
            `inventory_type facet ${list.meta.facets.inventory_type.advanced}, acknowledged ${floor.stock.size}`,
          );
      } else if (roll === 4) {
        for (const o of (await get(app, '/orders/?perpage=100')).data) olderNote(floor, 'orders list', o);
      } else {
        const feed = await get(app, '/changes/?types=product,order&limit=1000');
        assert.equal(feed.has_more, false);
        for (const e of feed.data) {
          if (e.action !== 'upsert') continue;
          if (e.type === 'product') olderPrice(floor, 'feed', e.record);
          else olderNote(floor, 'feed', e.record);
        }
      }
    }
  };

  // One update first: the server's first write compiles what later ones reuse.
  await post(`/products/${VISIBLE[0]}`, { price: counter });
  acked.prices.set(VISIBLE[0], counter);
  const reading = Promise.all([readers(apps[0]), readers(apps[0]), readers(apps[1]), readers(apps[1])]);
  const imports = importing();
  await Promise.all([writer(0), writer(1)]);
  writing = false;
  await Promise.all([reading, imports]);
  return { stale, reads, writes: counter - 1000, imported: acked.imported };
}

for (const backend of backends()) {
  describe(
    `reads never see the state before an acknowledged write [${backend}]`,
    { skip: backend === 'postgres' ? PG_SKIP : false },
    () => {
      test('single products, ids=, lists, totals, orders and the feed, from two apps, under writes of another process', async (t) => {
        const r = await run(t, backend, 'nothing');
        t.diagnostic(`${r.reads} reads, ${r.writes} HTTP writes, ${r.imported} imports`);
        assert.ok(r.reads > MIN_READS && r.writes > MIN_WRITES, 'enough reads and writes to mean something');
        assert.deepEqual(r.stale.slice(0, 10), []);
      });

      test('the guard: with the per-type versions broken on purpose, stale answers are seen', async (t) => {
        const r = await run(t, backend, 'type versions');
        t.diagnostic(`${r.reads} reads, ${r.writes} HTTP writes, ${r.stale.length} stale answers, e.g. ${r.stale[0]}`);
        assert.ok(r.stale.length > 0, 'the check catches caches keyed by versions that writes do not change');
      });

      test('the guard: with answers sent again as if no product had changed, stale products are seen', async (t) => {
        const r = await run(t, backend, 'answer reuse');
        t.diagnostic(`${r.reads} reads, ${r.stale.length} stale answers, e.g. ${r.stale[0]}`);
        assert.ok(r.stale.length > 0, 'the check catches products answers kept past a change of their products');
      });

      test('the guard: with the record versions broken on purpose, stale products are seen', async (t) => {
        const r = await run(t, backend, 'record versions');
        const kinds = new Set(r.stale.map((s) => s.split(':')[0]));
        t.diagnostic(
          `${r.reads} reads, ${r.stale.length} stale answers (${[...kinds].join(', ')}), e.g. ${r.stale[0]}`,
        );
        // single products, ids= and lists all come from the record cache (which of them a
        // short run catches depends on what was read)
        assert.ok(r.stale.length > 0, 'the check catches a record cache keyed without the versions');
        assert.ok(
          [...kinds].every((k) => ['single', 'ids=', 'list'].includes(k)),
          'only the record cache goes stale',
        );
      });
    },
  );
}
