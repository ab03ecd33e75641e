import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Storage } from '../../src/db/connect.js';
import { categories, leaves, product } from '../../src/generate/catalog.js';
import { type ImportOptions, importDocument } from '../../src/import/import.js';
import { threadedSqlite } from '../support/storage.js';

// SQLite served by threads stages an import (src/import/staged-run.ts): it reads, checks and
// compares the file in a read snapshot, outside the one writer, and takes the writer only to
// merge what changes. These prove that another project's write is not held while the file
// is read, and that the result is still exactly what one transaction would have written:
// a write of the importing project during the staging is not overwritten by a stale
// comparison, and handles moved within the file are judged as the database would hold them.

const cats = categories(1);
const leafIds = leaves(cats);
const N = 20_000; // the progress callback fires at 10,000: 10,000 records are read after it

function doc(projectId: string, n: number, change?: (p: ReturnType<typeof product>) => void) {
  const products = Array.from({ length: n }, (_, i) => product(i + 1, i, n, leafIds));
  for (const p of products) change?.(p);
  return { project: { id: projectId, name: projectId, currency: 'USD' }, categories: cats, products };
}

const priceOf = async (storage: Storage, projectId: string, id: number) =>
  Number(
    (
      await storage.db
        .selectFrom('products')
        .select('price')
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).price,
  );

describe('a staged import (SQLite served by threads)', () => {
  let storage: Storage;
  before(async () => {
    storage = await threadedSqlite(2);
    await importDocument(storage.db, doc('other', 1));
  });
  after(async () => {
    await storage.close();
  });
  const staged = (options: ImportOptions = {}): ImportOptions => ({ ...options, sliceMs: 5 });

  test("another project's write commits while the file is read; the import's write comes after", async () => {
    let otherDone: number | undefined;
    let writeBegan: number | undefined;
    let other: Promise<unknown> | undefined;
    const summary = await importDocument(
      storage.patientDb!,
      doc('big', N),
      staged({
        onProgress: (records) => {
          if (records !== 10_000) return;
          const write = doc('other', 1, (p) => (p.price = 4242));
          other = importDocument(storage.db, write).then(() => (otherDone = performance.now()));
        },
        onWrite: () => (writeBegan = performance.now()),
      }),
    );
    await other;
    assert.equal(summary.changes.products.created, N);
    assert.ok(otherDone !== undefined && writeBegan !== undefined);
    assert.ok(otherDone < writeBegan, 'the other write did not wait for the import');
    assert.equal(await priceOf(storage, 'other', 1), 4242);
  });

  test('a write of the importing project during the staging: the import writes what one transaction would', async () => {
    const original = await priceOf(storage, 'big', 5);
    let meanwhile: Promise<unknown> | undefined;
    const summary = await importDocument(
      storage.patientDb!,
      doc('big', N),
      staged({
        // Once: the import, finding the project moved, reads the file again inside its write.
        onProgress: (records) => {
          if (records !== 10_000 || meanwhile) return;
          const changed = doc('big', 5, (p) => (p.price = original + 1));
          meanwhile = importDocument(storage.db, { ...changed, products: changed.products.slice(4) });
        },
      }),
    );
    await meanwhile;
    // Compared with the snapshot, product 5 was unchanged; compared with what the merge
    // found, it had moved: it is written back, as the file says.
    assert.equal(await priceOf(storage, 'big', 5), original);
    assert.equal(summary.changes.products.updated, 1);
    assert.equal(summary.changes.products.unchanged, N - 1);
  });

  test('handles are judged as the database would hold them after the earlier batches', async () => {
    const base = doc('handles', 1200);
    await importDocument(storage.patientDb!, base, staged());
    // Product 1 gives up its handle in the first batch; a new product takes it in the third.
    const moved = doc('handles', 1200);
    moved.products[0].handle = 'renamed-first';
    const taker = { ...product(5000, 0, 1200, leafIds), handle: base.products[0].handle };
    const summary = await importDocument(
      storage.patientDb!,
      { ...moved, products: [...moved.products, taker] },
      staged(),
    );
    assert.equal(summary.changes.products.created, 1);
    assert.equal(summary.changes.products.updated, 1);
    // A handle a new record claimed in the first batch is taken for one in the third.
    const twice = doc('handles', 0);
    const first = { ...product(6000, 0, 1, leafIds), handle: 'claimed' };
    const fillers = Array.from({ length: 1100 }, (_, i) => product(7000 + i, i, 1100, leafIds));
    const second = { ...product(6001, 0, 1, leafIds), handle: 'claimed' };
    await assert.rejects(
      importDocument(storage.patientDb!, { ...twice, products: [first, ...fillers, second] }, staged()),
      (e: Error & { problems?: string[] }) =>
        e.problems?.some((p) => p.includes('"claimed" is already used by product 6000 in this file')) === true,
    );
  });
});
