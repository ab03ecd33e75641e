import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SortedWords, merged } from '../../src/resources/products/search/sorted-words.js';
import { Vocabulary } from '../../src/resources/products/search/vocabulary.js';
import { typosAllowed } from '../../src/resources/products/search/words.js';

// The vocabulary (sorted words walked as a trie, a second list for words added later)
// against brute force: the optimal string alignment distance from the query to every word
// and to every prefix of it, on random vocabularies of few characters (so that words near
// each other abound), with code points outside Latin-1 and outside the BMP, words added
// between matches, and limits small enough that both lists and every merge are used.

const CHARS = ['a', 'b', 'c', 'ß', 'σ', '中', '𝐀', '𠀀'];
const word = fc.array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 11 }).map((cs) => cs.join(''));
const edit = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.nat(), fc.constantFrom(...CHARS));
/** A word of the vocabulary (picked by number) with a few edits, or any word. */
const query = fc.record({
  base: fc.oneof(fc.nat(), word),
  edits: fc.array(edit, { maxLength: 3 }),
  prefix: fc.boolean(),
});
const step = fc.oneof(fc.array(word, { maxLength: 25 }), query);

/** The OSA table's last column: the distance from each prefix of `w` (by its length) to `q`. */
function prefixDistances(w: string[], q: string[]): number[] {
  const n = q.length;
  const rows = [Array.from({ length: n + 1 }, (_, j) => j)];
  for (let i = 1; i <= w.length; i++) {
    const row = [i];
    for (let j = 1; j <= n; j++) {
      let v = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + (w[i - 1] === q[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && w[i - 1] === q[j - 2] && w[i - 2] === q[j - 1]) v = Math.min(v, rows[i - 2][j - 2] + 1);
      row.push(v);
    }
    rows.push(row);
  }
  return rows.map((r) => r[n]);
}

function reference(words: Set<string>, query: string, prefix: boolean): Record<string, number> {
  const q = [...query];
  const k = typosAllowed(q.length);
  const out: Record<string, number> = {};
  for (const w of words) {
    const cs = [...w];
    const d = prefixDistances(cs, q);
    let best = d[cs.length] <= k ? (d[cs.length] === 0 ? 0 : 1 + d[cs.length]) : Infinity;
    if (prefix) for (let i = 1; i <= cs.length; i++) if (d[i] <= k) best = Math.min(best, 1 + d[i]);
    if (best !== Infinity) out[w] = best;
  }
  return out;
}

function edited(base: string, edits: [number, number, string][]): string {
  const cs = [...base];
  for (const [kind, at, c] of edits) {
    const i = at % (cs.length + 1);
    if (kind === 0) cs.splice(i, 0, c);
    else if (kind === 1 && i < cs.length) cs.splice(i, 1);
    else if (kind === 2 && i < cs.length) cs[i] = c;
    else if (kind === 3 && i + 1 < cs.length) [cs[i], cs[i + 1]] = [cs[i + 1], cs[i]];
  }
  return cs.join('');
}

test('the vocabulary matches as brute force does, with words added between matches', () => {
  fc.assert(
    fc.property(
      fc.array(step, { minLength: 1, maxLength: 40 }),
      fc.constantFrom(0, 3, 40, undefined),
      (steps, minMerge) => {
        const v = new Vocabulary(minMerge);
        const words = new Set<string>();
        const list: string[] = [];
        for (const s of steps) {
          if (Array.isArray(s)) {
            for (const w of s) {
              v.add(w);
              if (!words.has(w)) list.push(w);
              words.add(w);
            }
            continue;
          }
          const base = typeof s.base === 'string' || list.length === 0 ? String(s.base) : list[s.base % list.length];
          const q = edited(base, s.edits);
          assert.deepEqual(Object.fromEntries(v.match(q, s.prefix)), reference(words, q, s.prefix), q);
        }
        assert.equal(v.size, words.size);
      },
    ),
    { numRuns: 400 },
  );
});

test('short prefixes over many words: every word under them, none twice', () => {
  const v = new Vocabulary(64);
  const words = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const w = (i * 7919).toString(36) + CHARS[i % CHARS.length];
    v.add(w);
    words.add(w);
    if (i % 997 === 0)
      for (const q of ['a', '1', 'ab', '2n9'])
        assert.deepEqual(Object.fromEntries(v.match(q, true)), reference(words, q, true));
  }
  for (const q of ['', 'c', 'li', '10', '1zz', 'zzzzzzzzzzz']) {
    assert.deepEqual(Object.fromEntries(v.match(q, true)), reference(words, q, true), q);
    assert.deepEqual(Object.fromEntries(v.match(q, false)), reference(words, q, false), q);
  }
  assert.equal(v.size, words.size);
});

test('words longer than the shared prefixes kept (255 units) still match as brute force does', () => {
  const long = 'ab'.repeat(130);
  const words = new Set([long, `${long}a`, `${long}b`, `${long}ba`, `${long.slice(0, 254)}σσ`, `${long}𝐀`, 'ab']);
  const v = new Vocabulary(2);
  for (const w of words) v.add(w);
  for (const q of [long, `${long}a`, `${long}c`, long.slice(0, 258), `${long.slice(0, 254)}σ`, 'ab', 'aba'])
    for (const prefix of [false, true])
      assert.deepEqual(Object.fromEntries(v.match(q, prefix)), reference(words, q, prefix), `${q.length} ${prefix}`);
});

test('sorted words merged in steps are the words sorted at once, shared prefixes and lengths included', () => {
  fc.assert(
    fc.property(fc.array(fc.uniqueArray(word, { maxLength: 30 }), { maxLength: 5 }), (batches) => {
      let words = SortedWords.EMPTY;
      const all = new Set<string>();
      for (const batch of batches) {
        const fresh = batch.filter((w) => !all.has(w)).sort();
        for (const w of fresh) all.add(w);
        words = merged(words, fresh);
      }
      assert.deepEqual(words, merged(SortedWords.EMPTY, [...all].sort()));
    }),
  );
});
