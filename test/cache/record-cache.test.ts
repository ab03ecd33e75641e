import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RecordCache } from '../../src/cache/record-cache.js';

// The record cache (src/cache/record-cache.ts): each record's JSON kept by its version,
// presented once for requests that miss it together, and presented again when it failed.

const scope = { id: 'shop', incarnation: 'life1', currency: 'EUR' };
const json = (id: number, v: number) => JSON.stringify({ id, v });

test('concurrent misses present each record once; another version presents again', async () => {
  const cache = new RecordCache(true, 1 << 20);
  let presented = 0;
  const present = async (missing: { id: number; version: number }[]) => {
    presented += missing.length;
    await new Promise((r) => setTimeout(r, 5));
    return new Map(missing.map((r) => [r.id, json(r.id, r.version)]));
  };
  const records = [1, 2, 3].map((id) => ({ id, version: 7 }));
  const all = await Promise.all(Array.from({ length: 8 }, () => cache.assemble(scope, records, present)));
  assert.equal(presented, 3);
  for (const got of all) assert.deepEqual(got, [json(1, 7), json(2, 7), json(3, 7)]);
  const newer = await cache.assemble(scope, [{ id: 2, version: 8 }, ...records], present);
  assert.deepEqual(newer, [json(2, 8), json(1, 7), json(2, 7), json(3, 7)]);
  assert.equal(presented, 4);
});

test('a failed presenting fails its waiters, leaves nothing unhandled, and is tried again', async () => {
  const cache = new RecordCache(true, 1 << 20);
  let fail = true;
  const present = async (missing: { id: number; version: number }[]) => {
    await new Promise((r) => setTimeout(r, 5));
    if (fail) throw new Error('database gone');
    return new Map(missing.map((r) => [r.id, json(r.id, r.version)]));
  };
  const records = [1, 2, 3].map((id) => ({ id, version: 1 }));
  const results = await Promise.allSettled([
    cache.assemble(scope, records, present),
    cache.assemble(scope, records, present),
  ]);
  assert.ok(results.every((r) => r.status === 'rejected'));
  fail = false;
  assert.deepEqual(await cache.assemble(scope, records, present), [json(1, 1), json(2, 1), json(3, 1)]);
});

test('a record gone meanwhile is left out; the budget bounds what is kept', async () => {
  const cache = new RecordCache(true, 3000);
  const present = async (missing: { id: number; version: number }[]) =>
    new Map(missing.filter((r) => r.id !== 2).map((r) => [r.id, 'x'.repeat(500)]));
  const got = await cache.assemble(
    scope,
    [1, 2, 3, 4, 5].map((id) => ({ id, version: 1 })),
    present,
  );
  assert.equal(got.length, 4);
  assert.ok(cache.bytes <= 3000 && cache.size < 4, `${cache.size} entries, ${cache.bytes} bytes`);
});
