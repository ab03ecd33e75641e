import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Readable } from 'node:stream';
import { INTERRUPTED } from '../../src/imports/store.js';
import { eachBackend } from '../support/each-backend.js';
import { call } from '../support/request.js';
import { OTHER, SHOP } from '../support/shop.js';
import { SHOP_LINE, importApp, ndjson, stateOf } from './support.js';

// Imports over HTTP (docs/API.md, "Imports"): the job's states, its answer, errors by place,
// nothing written unless it succeeds, dry runs, cancels, the queue, Idempotency-Key, the
// restart, and the refusals (415, 413, another project's file).

type Import = {
  id: number;
  status: string;
  dry_run: boolean;
  format: string;
  bytes: number;
  records_read: number;
  progress: number;
  counts: Record<string, { upserted: number; deleted: number }>;
  errors: { place: string; message: string }[];
  errors_total: number;
  cursor_before: string | null;
  started_at: number | null;
  finished_at: number | null;
};
/** A product line of an NDJSON file; `record()` drops the type, for a JSON document. */
const product = (id: number, name: string, price = 100) => ({ type: 'product', id, handle: `p-${id}`, name, price });
const record = ({ type: _type, ...fields }: Record<string, unknown>) => fields;

eachBackend('imports over HTTP', (backend) => {
  test('an upload is a job: 202 with Location, then it succeeds with its counts and import.completed', async (t) => {
    const shop = await importApp(t, backend);
    const file = ndjson(SHOP_LINE, product(100, 'Imported one', 700), { type: 'category', id: 2, deleted: true });
    const answer = await shop.upload(file);
    assert.equal(answer.status, 202);
    const queued = answer.body as Import;
    assert.equal(answer.headers.location, `/v2/projects/${SHOP}/imports/${queued.id}`);
    assert.ok(['queued', 'running', 'succeeded'].includes(queued.status));
    assert.equal(queued.format, 'ndjson');
    assert.equal(queued.bytes, Buffer.byteLength(file));
    assert.equal(queued.dry_run, false);

    const done = (await shop.finished(queued.id)).body as Import;
    assert.equal(done.status, 'succeeded');
    assert.equal(done.records_read, 3);
    assert.equal(done.progress, 1);
    assert.deepEqual(done.counts.products, { upserted: 1, deleted: 0 });
    assert.ok(done.counts.categories.deleted >= 1);
    assert.deepEqual(done.errors, []);
    assert.ok(done.started_at !== null && done.finished_at !== null && done.cursor_before !== null);

    const stored = await shop.send('GET', '/products/100');
    assert.equal((stored.body as { name: string }).name, 'Imported one');
    // The change feed from cursor_before holds exactly what the import changed.
    const feed = await shop.send('GET', `/changes/?since=${done.cursor_before}&types=product`);
    assert.ok((feed.body as { data: { id: number }[] }).data.some((e) => e.id === 100));
    const events = await shop.storage.db.selectFrom('webhook_messages').select('type').execute();
    assert.ok(events.some((e) => e.type === 'import.completed'));
    assert.deepEqual(shop.spooled(), [], 'the spool file is removed when the import ends');
  });

  test('Prefer: wait answers 200 with the finished import, and the list is newest first', async (t) => {
    const shop = await importApp(t, backend);
    const doc = { project: { id: SHOP, name: 'Shop', currency: 'EUR' }, products: [record(product(101, 'Waited'))] };
    const first = await shop.upload(JSON.stringify(doc), {
      type: 'application/json',
      headers: { prefer: 'wait=30' },
    });
    assert.equal(first.status, 200);
    assert.equal(first.headers['preference-applied'], 'wait=30');
    assert.match(String(first.headers.location), /\/imports\/\d+$/);
    assert.equal((first.body as Import).status, 'succeeded');
    assert.equal((first.body as Import).format, 'json');
    const second = await shop.upload(ndjson(SHOP_LINE), { headers: { prefer: 'respond-async, wait=10' } });
    assert.equal(second.status, 200);
    const list = await shop.send('GET', '/imports/');
    assert.equal(list.status, 200);
    assert.deepEqual(
      (list.body as { data: Import[] }).data.map((i) => i.id),
      [(second.body as Import).id, (first.body as Import).id],
    );
    assert.equal((await shop.send('GET', '/imports/999999')).status, 404);
  });

  test('a bad file fails with every error by place, and nothing is written', async (t) => {
    const shop = await importApp(t, backend);
    const before = await stateOf(shop.storage);
    const doc = {
      project: { id: SHOP, name: 'Shop', currency: 'EUR' },
      products: [product(102, 'Fine'), { ...product(103, 'Bad'), price: 'free' }, product(104, '')].map(record),
    };
    const json = await shop.upload(JSON.stringify(doc), { type: 'application/json', headers: { prefer: 'wait=30' } });
    const failed = json.body as Import;
    assert.equal(json.status, 200);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.errors_total, 2);
    assert.deepEqual(
      failed.errors.map((e) => e.place),
      ['products[1].price', 'products[2].name'],
    );
    const lines = await shop.upload(ndjson(SHOP_LINE, product(105, 'Fine'), { ...product(106, 'Bad'), price: -1 }), {
      headers: { prefer: 'wait=30' },
    });
    assert.equal((lines.body as Import).status, 'failed');
    assert.equal((lines.body as Import).errors[0].place, 'line 3');
    const broken = await shop.upload('{"type":"project",', { headers: { prefer: 'wait=30' } });
    assert.equal((broken.body as Import).status, 'failed');
    assert.match((broken.body as Import).errors[0].place, /^line 1$/);
    const notJson = await shop.upload('{"project":', { type: 'application/json', headers: { prefer: 'wait=30' } });
    assert.deepEqual((notJson.body as Import).errors[0].place, 'body');
    assert.doesNotMatch(JSON.stringify(notJson.body), /\/tmp|import-spool|\.json\b/, 'no file path in an answer');
    assert.deepEqual(await stateOf(shop.storage), before, 'catalog, change feed, outbox and versions unchanged');
    assert.deepEqual(shop.spooled(), []);
  });

  test('dry_run=true checks everything and writes nothing', async (t) => {
    const shop = await importApp(t, backend);
    const before = await stateOf(shop.storage);
    const ok = await shop.upload(ndjson(SHOP_LINE, product(107, 'Would be')), {
      query: '?dry_run=true',
      headers: { prefer: 'wait=30' },
    });
    const run = ok.body as Import;
    assert.equal(run.status, 'succeeded');
    assert.equal(run.dry_run, true);
    assert.deepEqual(run.counts.products, { upserted: 1, deleted: 0 });
    const bad = await shop.upload(ndjson(SHOP_LINE, { ...product(108, 'x'), price: 'no' }), {
      query: '?dry_run=true',
      headers: { prefer: 'wait=30' },
    });
    assert.equal((bad.body as Import).status, 'failed');
    assert.equal((bad.body as Import).errors[0].place, 'line 2');
    assert.deepEqual(await stateOf(shop.storage), before);
    assert.equal((await shop.send('GET', '/products/107')).status, 404);
  });

  test('a file for another project is refused by name; the other project is untouched', async (t) => {
    const shop = await importApp(t, backend);
    const before = await stateOf(shop.storage);
    const answer = await shop.upload(ndjson({ ...SHOP_LINE, id: OTHER }, product(1, 'Hijacked')), {
      headers: { prefer: 'wait=30' },
    });
    const failed = answer.body as Import;
    assert.equal(failed.status, 'failed');
    assert.equal(failed.errors[0].place, 'line 1');
    assert.match(failed.errors[0].message, /"other".*"shop"/);
    const doc = { project: { id: OTHER, name: 'x', currency: 'USD' } };
    const json = await shop.upload(JSON.stringify(doc), { type: 'application/json', headers: { prefer: 'wait=30' } });
    assert.equal((json.body as Import).errors[0].place, 'project.id');
    assert.deepEqual(await stateOf(shop.storage), before);
  });

  test('another media type is 415, a body past IMPORT_MAX_BYTES 413 at once, chunked or not', async (t) => {
    const shop = await importApp(t, backend, { imports: { maxBytes: 200 } });
    for (const type of [
      'text/plain',
      'text/csv; charset=latin1',
      'application/xml',
      'application/json; charset=latin1',
    ]) {
      const answer = await shop.upload('id,name\n1,x\n', { type });
      assert.equal(answer.status, 415, type);
      assert.equal((answer.body as { error: { code: string } }).error.code, 'unsupported_media_type');
    }
    const none = await shop.send('POST', '/imports/');
    assert.equal(none.status, 415);
    const big = ndjson(SHOP_LINE, product(109, 'x'.repeat(120)), product(110, 'y'.repeat(120)));
    const declared = await shop.upload(big);
    assert.equal(declared.status, 413);
    assert.equal((declared.body as { error: { code: string } }).error.code, 'payload_too_large');
    const chunked = await shop.app.inject({
      method: 'POST',
      url: `/v2/projects/${SHOP}/imports/`,
      headers: { authorization: `Bearer ${shop.shopKey}`, 'content-type': 'application/x-ndjson' },
      payload: Readable.from([Buffer.from(big.slice(0, 150)), Buffer.from(big.slice(150))]),
    });
    assert.equal(chunked.statusCode, 413);
    const empty = await shop.upload('');
    assert.ok([400, 415].includes(empty.status));
    const notUtf8 = await shop.upload(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) as unknown as string);
    assert.equal(notUtf8.status, 400);
    assert.deepEqual(shop.spooled(), [], 'refused uploads leave no spool file');
    assert.deepEqual((await shop.send('GET', '/imports/')).body, { data: [] });
  });

  test("a key without imports:write is 403, another project's key 401", async (t) => {
    const shop = await importApp(t, backend);
    const reader = await shop.key(SHOP, { scopes: ['orders:read'] });
    const denied = await call(shop.app, 'POST', `/v2/projects/${SHOP}/imports/`, {
      raw: ndjson(SHOP_LINE),
      headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/x-ndjson' },
    });
    assert.equal(denied.status, 403);
    const other = await shop.key(OTHER);
    const wrong = await call(shop.app, 'GET', `/v2/projects/${SHOP}/imports/`, {
      headers: { authorization: `Bearer ${other}` },
    });
    assert.equal(wrong.status, 401);
    assert.deepEqual(shop.spooled(), []);
  });

  test('jobs queue in order, one per project; a queued one can be canceled; a finished one is 409', async (t) => {
    // "Process" A only accepts uploads; B, on the same database, runs them.
    const a = await importApp(t, backend, { imports: { runner: false } });
    const ids: number[] = [];
    for (const name of ['first', 'second', 'third']) {
      const answer = await a.upload(ndjson(SHOP_LINE, product(111, name)));
      assert.equal(answer.status, 202);
      assert.equal((answer.body as Import).status, 'queued');
      ids.push((answer.body as Import).id);
    }
    const canceled = await a.send('POST', `/imports/${ids[1]}/cancel`);
    assert.equal(canceled.status, 200);
    assert.equal((canceled.body as Import).status, 'canceled');
    assert.equal(a.spooled().length, 2, "the canceled upload's spool file is gone");
    assert.equal((await a.send('POST', `/imports/${ids[1]}/cancel`)).status, 409);

    const order: number[] = [];
    const b = await importApp(t, backend, {
      storage: a.storage,
      seed: false,
      spoolDir: a.spoolDir,
      imports: {
        beforeRun: async (job) => {
          order.push(Number(job.id));
        },
      },
    });
    const last = (await b.finished(ids[2])).body as Import;
    assert.equal(last.status, 'succeeded');
    assert.equal(((await b.finished(ids[0])).body as Import).status, 'succeeded');
    assert.deepEqual(order, [ids[0], ids[2]]);
    assert.equal(((await b.send('GET', '/products/111')).body as { name: string }).name, 'third');
    const late = await b.send('POST', `/imports/${ids[0]}/cancel`);
    assert.equal(late.status, 409);
    assert.equal((late.body as { error: { code: string } }).error.code, 'conflict');
    assert.deepEqual(b.spooled(), []);
  });

  test('a running import canceled stops and writes nothing', async (t) => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const shop = await importApp(t, backend, {
      imports: {
        // Holds the job in `running` until it is canceled.
        beforeRun: (_job, signal) => {
          started();
          return new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
        },
      },
    });
    const before = await stateOf(shop.storage);
    const answer = await shop.upload(ndjson(SHOP_LINE, product(112, 'Never')));
    const id = (answer.body as Import).id;
    await running;
    assert.equal(((await shop.send('GET', `/imports/${id}`)).body as Import).status, 'running');
    const canceled = await shop.send('POST', `/imports/${id}/cancel`);
    assert.equal(canceled.status, 200);
    assert.equal((canceled.body as Import).status, 'canceled');
    assert.deepEqual(await stateOf(shop.storage), before);
    assert.deepEqual(shop.spooled(), []);
    assert.equal((await shop.send('POST', `/imports/${id}/cancel`)).status, 409);
  });

  test('Idempotency-Key: a retried upload answers the first import; another body with the key is 409', async (t) => {
    const shop = await importApp(t, backend);
    const file = ndjson(SHOP_LINE, product(113, 'Once'));
    const headers = { 'idempotency-key': 'upload-113' };
    const first = await shop.upload(file, { headers });
    const again = await shop.upload(file, { headers });
    assert.equal(again.status, first.status);
    assert.equal((again.body as Import).id, (first.body as Import).id);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.headers.location, first.headers.location);
    const other = await shop.upload(ndjson(SHOP_LINE, product(113, 'Twice')), { headers });
    assert.equal(other.status, 409);
    await shop.finished((first.body as Import).id);
    assert.equal(((await shop.send('GET', '/imports/')).body as { data: Import[] }).data.length, 1);
    assert.deepEqual(shop.spooled(), []);
  });

  test('an import left running by a dead process is marked failed when a process starts', async (t) => {
    const a = await importApp(t, backend, { imports: { runner: false } });
    const id = ((await a.upload(ndjson(SHOP_LINE, product(114, 'Lost')))).body as Import).id;
    // What a process that died mid-import leaves: running, under a lease that ran out.
    await a.storage.db
      .updateTable('import_jobs')
      .set({ status: 'running', started_at: 1, lease_owner: 'dead-host:1:x', lease_until: 1 })
      .where('id', '=', id)
      .execute();
    const b = await importApp(t, backend, { storage: a.storage, seed: false, spoolDir: a.spoolDir });
    const failed = (await b.send('GET', `/imports/${id}`)).body as Import;
    assert.equal(failed.status, 'failed');
    assert.deepEqual(failed.errors, [INTERRUPTED]);
    assert.equal((await b.send('GET', '/products/114')).status, 404);
    assert.deepEqual(b.spooled(), []);
    // The project's queue moves on.
    const next = await b.upload(ndjson(SHOP_LINE, product(115, 'Next')), { headers: { prefer: 'wait=30' } });
    assert.equal((next.body as Import).status, 'succeeded');
  });
});
