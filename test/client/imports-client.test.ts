import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, openAsBlob, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ApiError, createClient } from '../../src/client/index.js';
import { eachBackend } from '../support/each-backend.js';
import { testApp } from '../support/app.js';
import { SHOP, seedShop } from '../support/shop.js';

// The client's imports helpers against a real server: a string, a Blob of a file and a Node
// stream are uploaded; create waits when asked, wait() polls to the end, list and cancel.

const line = (record: object) => JSON.stringify(record) + '\n';
const project = { type: 'project', id: 'shop', name: 'Shop', currency: 'EUR' };

eachBackend('client imports', (backend) => {
  test('create (string, file, stream), get, wait, list, cancel', async (t) => {
    // A server that runs import jobs, as `storefront serve` does.
    const { app, storage, key } = await testApp(t, backend, { imports: { runner: true, pollMs: 100 } });
    await seedShop(storage);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const client = createClient({ baseUrl, projectId: SHOP, apiKey: await key(SHOP) });

    const text = line(project) + line({ type: 'product', id: 300, handle: 'from-text', name: 'From text', price: 1 });
    const waited = await client.imports.create(text, { wait: 30 });
    assert.equal(waited.status, 'succeeded');
    assert.equal(waited.format, 'ndjson');
    assert.deepEqual(waited.counts.products, { upserted: 1, deleted: 0 });

    const dir = mkdtempSync(join(tmpdir(), 'client-import-'));
    const json = join(dir, 'catalog.json');
    writeFileSync(json, JSON.stringify({ project: { id: 'shop', name: 'Shop', currency: 'EUR' } }));
    // The project as an import must name it, read with any key; the upload says how far it got.
    const named = await client.project();
    assert.deepEqual(named, {
      id: 'shop',
      name: (await storage.db.selectFrom('projects').select('name').where('id', '=', SHOP).executeTakeFirstOrThrow())
        .name,
      currency: named.currency,
    });
    const progress: Array<[number, number | undefined]> = [];
    const fromFile = await client.imports.create(await openAsBlob(json), {
      format: 'json',
      dryRun: true,
      onUploadProgress: (sent, total) => progress.push([sent, total]),
    });
    const size = (await openAsBlob(json)).size;
    assert.deepEqual(progress.at(-1), [size, size], 'the whole file was reported sent');
    assert.equal(fromFile.dry_run, true);
    assert.equal(fromFile.format, 'json');
    assert.equal((await client.imports.wait(fromFile.id, { intervalMs: 20 })).status, 'succeeded');

    const ndjson = join(dir, 'catalog.ndjson');
    writeFileSync(ndjson, text.replace('From text', 'From a stream'));
    const streamed = await client.imports.create(createReadStream(ndjson), { idempotencyKey: 'stream-1' });
    const done = await client.imports.wait(streamed.id, { intervalMs: 20 });
    assert.equal(done.status, 'succeeded');
    assert.equal((await client.products.get(300)).name, 'From a stream');
    assert.equal((await client.imports.get(streamed.id)).id, streamed.id);

    const bad = await client.imports.create(line(project) + line({ type: 'product', id: 301, price: 'x' }), {
      wait: 30,
    });
    assert.equal(bad.status, 'failed');
    assert.equal(bad.errors[0].place, 'line 2');

    const list = await client.imports.list();
    assert.deepEqual(
      list.data.map((i) => i.id),
      [bad.id, streamed.id, fromFile.id, waited.id],
    );
    await assert.rejects(client.imports.cancel(waited.id), (e: unknown) => e instanceof ApiError && e.status === 409);
  });
});
