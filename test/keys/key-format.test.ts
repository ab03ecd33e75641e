import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { generateKey, isWellFormedKey, sameHash } from '../../src/keys/token.js';

// What an API key looks like (docs/API.md, "Keys and authentication"): recognisable by its prefix, random,
// and checksummed, so that a mistyped key is refused without asking the database.

test('keys: sfk_ prefix, 32 random base62 characters and a 6-character checksum', () => {
  const keys = new Set(Array.from({ length: 1000 }, generateKey));
  assert.equal(keys.size, 1000);
  for (const key of keys) {
    assert.match(key, /^sfk_[0-9A-Za-z]{38}$/);
    assert.ok(isWellFormedKey(key));
  }
  // Every position of the random part takes many values: no fixed or biased characters.
  const sample = [...keys];
  for (let i = 4; i < 36; i++) assert.ok(new Set(sample.map((k) => k[i])).size > 40, `position ${i} varies`);
});

test('keys: one mistyped character or a swapped pair fails the checksum', () => {
  const key = generateKey();
  let refused = 0;
  for (let i = 4; i < key.length; i++) {
    const c = key[i] === 'a' ? 'b' : 'a';
    const typo = key.slice(0, i) + c + key.slice(i + 1);
    if (!isWellFormedKey(typo)) refused++;
  }
  assert.equal(refused, key.length - 4);
  for (const bad of [
    '',
    'sfk_',
    'sk_live_abc',
    `sfk_${'a'.repeat(37)}`,
    key.slice(0, -1),
    `${key}x`,
    key.toUpperCase(),
    key.replace('sfk_', 'sfx_'),
    ` ${key}`,
  ]) {
    assert.equal(isWellFormedKey(bad), false, bad);
  }
});

test('keys: hashes are compared in constant time and by value', () => {
  const a = createHash('sha256').update('a').digest('hex');
  const b = createHash('sha256').update('b').digest('hex');
  assert.equal(sameHash(a, a), true);
  assert.equal(sameHash(a, b), false);
  assert.equal(sameHash(a, a.slice(0, 10)), false);
});
