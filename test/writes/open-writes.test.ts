import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterOpenWrites, writeBegan, writeEnded } from '../../src/writes/open-writes.js';

// Shopper search's computation from memory waits for the short writes open in the process
// (src/writes/open-writes.ts), so that their transactions are not kept open by it; never
// longer than its bound.

test('no open write: at once; open writes: until the last ends, checked again after each wake-up', async () => {
  let t = Date.now();
  await afterOpenWrites(1000);
  assert.ok(Date.now() - t < 50);
  writeBegan();
  writeBegan();
  let done = false;
  const waiting = afterOpenWrites(5000).then(() => (done = true));
  writeEnded();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(done, false, 'one write still open');
  t = Date.now();
  writeEnded();
  await waiting;
  assert.ok(Date.now() - t < 100);
});

test('a write that stays open is waited for at most the bound', async () => {
  writeBegan();
  const t = Date.now();
  await afterOpenWrites(60);
  const waited = Date.now() - t;
  writeEnded();
  assert.ok(waited >= 55 && waited < 1000, `${waited} ms`);
});
