import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Lru } from '../../src/cache/lru.js';

// The bounded map behind the answer cache, the count cache, the key checker and the SQLite
// statement cache: what it keeps and drops as it fills.

test('an entry asked for since the last eviction outlives older ones nobody asked for', () => {
  const lru = new Lru<string>(3);
  lru.set('a', 'A');
  lru.set('b', 'B');
  lru.set('c', 'C');
  lru.set('d', 'D'); // every entry was new: the oldest, a, goes
  assert.equal(lru.get('a'), undefined);
  assert.equal(lru.get('b'), 'B');
  lru.set('e', 'E'); // b was asked for, c was not
  assert.equal(lru.get('c'), undefined);
  assert.deepEqual(
    ['b', 'd', 'e'].map((k) => lru.get(k)),
    ['B', 'D', 'E'],
  );
  assert.equal(lru.size, 3);
});

test('the bound is on total weight; a value heavier than the bound is not kept', () => {
  const lru = new Lru<string>(10, (v) => v.length);
  lru.set('a', 'xxxx');
  lru.set('b', 'yyyy');
  lru.set('c', 'zzzz'); // 12 > 10: one goes
  assert.equal(lru.size, 2);
  lru.set('huge', 'x'.repeat(11));
  assert.equal(lru.get('huge'), undefined);
  assert.equal(lru.size, 2);
});

test('a value stored again under its key replaces it and counts its new weight', () => {
  const lru = new Lru<string>(10, (v) => v.length);
  lru.set('a', 'xx');
  lru.set('b', 'yy');
  lru.set('a', 'xxxxxxxx'); // 8 + 2 = 10: both fit
  assert.equal(lru.get('a'), 'xxxxxxxx');
  assert.equal(lru.get('b'), 'yy');
  lru.set('c', 'z'); // 11: one goes, and the total is right again
  assert.equal(lru.size, 2);
  assert.equal(lru.get('c'), 'z');
});

test('one key asked for over and over in a full map keeps every entry reachable', () => {
  // The former LRU moved the entry on every hit; a hot key then grew a chain of deleted
  // copies in the Map (lru.ts). The behaviour asked of the fix: entries stay exact.
  const lru = new Lru<number>(1000);
  for (let i = 0; i < 1000; i++) lru.set(`k${i}`, i);
  for (let i = 0; i < 20_000; i++) assert.equal(lru.get('k7'), 7);
  for (let i = 1000; i < 3500; i++) {
    lru.set(`k${i}`, i);
    assert.equal(lru.get('k7'), 7, 'the hot key survives the evictions');
  }
  assert.equal(lru.size, 1000);
  assert.equal(lru.get('k0'), undefined, 'the oldest untouched key went');
  assert.equal(lru.get('k3499'), 3499);
});
