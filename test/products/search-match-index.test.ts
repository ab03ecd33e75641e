import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type IndexedProduct, MatchIndex } from '../../src/resources/products/search/match-index.js';
import { memoryPage } from '../../src/resources/products/search/memory-page.js';
import { wordRunsOf, worthProbing } from '../../src/resources/products/search/memory-matches.js';
import { SearchThreads } from '../../src/resources/products/search/search-threads.js';
import type { ShopSearch } from '../../src/resources/products/search/page.js';
import { Vocabulary } from '../../src/resources/products/search/vocabulary.js';
import { queryWords } from '../../src/resources/products/search/words.js';
import type { OrderClause } from '../../src/resources/products/schemas.js';
import { CATEGORIES, POOL } from './search/catalog.js';

// The match index alone (no database): an index that saw a product changed many times, its
// dead slots masked and then compacted, answers exactly as one built from the products as
// they end up. search-memory-matches-sql.test.ts holds it to the SQL path through the API.

const tree = { parents: new Map(CATEGORIES.map((c) => [c.id, c.parent_id])) };
const vocabulary = new Vocabulary();
for (const w of queryWords(POOL.join(' '))) vocabulary.add(w);

const phrase = fc.array(fc.constantFrom(...POOL), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const product = (id: number): fc.Arbitrary<IndexedProduct> =>
  fc.record({
    id: fc.constant(id),
    price: fc.integer({ min: 0, max: 20 }).map((p) => p * 250),
    inventory_type: fc.constantFrom('simple' as const, 'advanced' as const),
    in_stock: fc.integer({ min: 0, max: 1 }),
    stock_quantity: fc.integer({ min: 0, max: 2 }),
    show_in_store: fc.integer({ min: 0, max: 1 }),
    created_at: fc.integer({ min: 1000, max: 1004 }),
    custom_sort: fc.integer({ min: 0, max: 2 }),
    search_text: fc.tuple(phrase, phrase).map(([n, d]) => `${n.toLowerCase()}\u001f${d.toLowerCase()}`),
    categories: fc.uniqueArray(fc.constantFrom(...CATEGORIES.map((c) => c.id)), { maxLength: 2 }),
  });
const IDS = 300;
const write = fc.integer({ min: 1, max: IDS }).chain((id) => fc.option(product(id)).map((p) => ({ id, p })));
const request = fc.record({
  q: fc.option(fc.array(fc.constantFrom(...POOL), { minLength: 1, maxLength: 2 }), { nil: undefined }),
  order: fc.constantFrom<OrderClause[]>([], ['price_asc'], ['date_desc'], ['custom_asc', 'price_desc']),
  inStock: fc.option(fc.boolean(), { nil: undefined }),
  categories: fc.option(fc.constantFrom([1], [2, 6]), { nil: undefined }),
  hidden: fc.boolean(),
});

/** A visible, stocked product at 1.00 in no category. */
function plain(id: number, name: string, description: string, created: number): IndexedProduct {
  return {
    id,
    price: 100,
    inventory_type: 'simple',
    in_stock: 1,
    stock_quantity: 0,
    show_in_store: 1,
    created_at: created,
    custom_sort: 0,
    search_text: `${name}\u001f${description}`,
    categories: [],
  };
}

/** The list request `r` stands for. */
function asked(r: typeof request extends fc.Arbitrary<infer R> ? R : never) {
  const words = r.q && queryWords(r.q.join(' '));
  const shop: ShopSearch = {
    words,
    candidates: words?.map((w, i) => vocabulary.match(w, i === words.length - 1)),
    relevance: words !== undefined && r.order.length === 0,
    inStock: r.inStock,
    categories: r.categories && [...r.categories],
    facets: ['category', 'price', 'in_stock', 'inventory_type'],
  };
  const order: OrderClause[] = r.order.length || words ? r.order : ['date_desc'];
  return { filter: { projectId: 'p', includeHidden: r.hidden }, shop, order };
}

test('a search thread answers from the shared arrays as the event loop does, before and after the index changes', async () => {
  const threads = new SearchThreads(2);
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(write, { minLength: 200, maxLength: 2000 }),
        fc.array(write, { maxLength: 300 }),
        fc.array(request, { minLength: 1, maxLength: 12 }),
        async (built, later, requests) => {
          const index = new MatchIndex('life');
          for (const { id, p } of built) index.put(id, p ?? undefined);
          index.tree = tree;
          index.trim();
          for (const round of [[], later]) {
            await index.gate.change(() => {
              for (const { id, p } of round) index.put(id, p ?? undefined);
              index.compactIfWorth();
            });
            const inline = requests.map((r) => {
              const { filter, shop, order } = asked(r);
              return memoryPage(index, wordRunsOf(index, shop.candidates), filter, shop, order, 0, 10);
            });
            const threaded = await Promise.all(
              requests.map((r) => {
                const { filter, shop, order } = asked(r);
                return index.gate.read(() =>
                  threads.page(index, wordRunsOf(index, shop.candidates), filter, shop, order, 0, 10),
                );
              }),
            );
            assert.deepEqual(threaded, inline);
          }
        },
      ),
      { numRuns: 15 },
    );
  } finally {
    await threads.close();
  }
});

test('an index changed thousands of times, compacted, answers as one built from the final products', () => {
  fc.assert(
    fc.property(
      fc.array(write, { minLength: 3000, maxLength: 3000 }),
      fc.array(request, { maxLength: 20 }),
      (writes, requests) => {
        const changed = new MatchIndex('life');
        const final = new Map<number, IndexedProduct>();
        for (const { id, p } of writes) {
          changed.put(id, p ?? undefined);
          if (p) final.set(id, p);
          else final.delete(id);
          changed.compactIfWorth();
        }
        const fresh = new MatchIndex('life');
        for (const p of [...final.values()].reverse()) fresh.add(p);
        changed.tree = fresh.tree = tree;
        const answers = (index: MatchIndex) =>
          requests.map((r) => {
            const { filter, shop, order } = asked(r);
            return memoryPage(index, wordRunsOf(index, shop.candidates), filter, shop, order, 0, 10);
          });
        const before = answers(changed);
        assert.deepEqual(before, answers(fresh));
        changed.compact();
        assert.equal(changed.size, final.size);
        assert.deepEqual(answers(changed), before);
      },
    ),
    { numRuns: 10 },
  );
});

test('a rare word beside a common one is probed in its postings, base and later ones alike, as reading them finds', () => {
  const index = new MatchIndex('life');
  const p = (id: number, name: string, description: string) => plain(id, name, description, 1000);
  // 400 products hold "common" in the name; "rare" is in one name and one description of the
  // built arrays, and in one description added after the build (a later posting).
  for (let id = 1; id <= 400; id++) index.add(p(id, 'common lamp', id === 7 ? 'rare' : 'plain'));
  index.add(p(401, 'rare common', 'plain'));
  index.trim();
  index.put(250, p(250, 'common lamp', 'rare find'));
  const vocabulary = new Vocabulary();
  for (const w of ['common', 'lamp', 'rare', 'plain', 'find']) vocabulary.add(w);
  for (const q of ['rare common', 'common rare', 'rare', 'common']) {
    const words = queryWords(q);
    const shop: ShopSearch = {
      words,
      candidates: words.map((w, i) => vocabulary.match(w, i === words.length - 1)),
      relevance: true,
      facets: ['price'],
    };
    const runs = wordRunsOf(index, shop.candidates);
    const page = memoryPage(index, runs, { projectId: 'p', includeHidden: false }, shop, [], 0, 5);
    if (q === 'common') {
      assert.equal(page.total, 401);
      continue;
    }
    // The name match first, then the description matches by id, newest (largest) first.
    assert.deepEqual(page.ids, [401, 250, 7], q);
    assert.equal(page.total, 3, q);
    assert.equal(
      page.facets?.price?.ranges.reduce((n, r) => n + r.count, 0),
      3,
      q,
    );
  }
});

test('a word is probed only when its binary searches are far fewer than its postings', () => {
  // A rare word beside a common one: probed.
  assert.equal(worthProbing(100, 3, 200_000), true);
  // A one-letter prefix (1,225 candidate words, 3.5M postings) beside a broad word's 198k matches: read
  // whole (probing it, a binary search per match and candidate, took 39 s at 1M).
  assert.equal(worthProbing(198_123, 1_225, 3_500_000), false);
  assert.equal(worthProbing(50_000, 1, 60_000), false);
});

test("a short prefix's kept candidates and runs see the postings added after them", () => {
  const index = new MatchIndex('life');
  const p = (id: number, name: string) => plain(id, name, '', 1000 + id);
  index.add(p(1, 'lamp'));
  index.add(p(2, 'ladder'));
  index.trim();
  const vocabulary = new Vocabulary();
  // Enough words under `la` for the vocabulary to keep its candidates (vocabulary.ts), and the postings their runs.
  for (const w of ['lamp', 'ladder', 'table', ...Array.from({ length: 300 }, (_, i) => `la${i}x`)]) vocabulary.add(w);
  assert.equal(vocabulary.match('la', true), vocabulary.match('la', true));
  const page = () => {
    const shop: ShopSearch = { words: ['la'], candidates: [vocabulary.match('la', true)], relevance: true };
    return memoryPage(
      index,
      wordRunsOf(index, shop.candidates),
      { projectId: 'p', includeHidden: false },
      shop,
      [],
      0,
      10,
    );
  };
  assert.deepEqual(page().ids, [2, 1]);
  // The same candidates (no word is new to the vocabulary), a new product holding one of them.
  index.put(3, p(3, 'lamp'));
  assert.deepEqual(page().ids, [3, 2, 1]);
  index.put(2, undefined);
  assert.deepEqual(page().ids, [3, 1]);
});
