import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { syncFile } from 'storefront-client/sync-file';
import { ApiError, type Change, CursorGoneError, type Mirror, createClient } from '../../src/client/index.js';

// The client side of the change feed against a scripted feed: how changes() follows `next`
// and keeps its cursor, how sync() nets a call's changes out and starts over on a 410. The
// same helpers against the real endpoint, with writes in between: changes-sync.test.ts.

type Page = { data: Change[]; next: string; has_more: boolean };

/** A client whose feed answers `pages[since ?? '']`, or 410 for a since marked gone; it logs each URL. */
function scriptedFeed(pages: Record<string, Page>, gone: string[] = []) {
  const urls: URL[] = [];
  const client = createClient({
    baseUrl: 'http://feed.example',
    projectId: 'shop',
    fetch: async (input) => {
      const url = new URL(input instanceof Request ? input.url : input);
      urls.push(url);
      const since = url.searchParams.get('since') ?? '';
      if (gone.includes(since)) {
        return Response.json(
          { error: { status: 410, code: 'gone', message: 'the cursor is older than the changes kept' } },
          { status: 410 },
        );
      }
      const page = pages[since];
      assert.ok(page, `no page scripted after ${since}`);
      return Response.json(page);
    },
  });
  return { client, urls };
}

const product = (id: number, price: number, category_ids: number[] = []) =>
  ({
    type: 'product',
    id,
    action: 'upsert',
    record: { id, handle: `p${id}`, name: `P${id}`, price, category_ids },
    changed_at: 1,
  }) as unknown as Change;
const deleted = (type: Change['type'], id: number) =>
  ({ type, id, action: 'delete', record: null, changed_at: 2 }) as Change;

test('changes() follows next until has_more is false, and its cursor is the last next', async () => {
  const { client, urls } = scriptedFeed({
    '': { data: [product(1, 100), product(2, 200)], next: 'a', has_more: true },
    a: { data: [deleted('product', 1)], next: 'b', has_more: false },
    b: { data: [], next: 'b', has_more: false },
  });
  const feed = client.changes({ types: ['product', 'category'], limit: 2, fetchHidden: true });
  assert.equal(feed.cursor, undefined);
  const seen: string[] = [];
  for await (const change of feed) seen.push(`${change.action} ${change.id}`);
  assert.deepEqual(seen, ['upsert 1', 'upsert 2', 'delete 1']);
  assert.equal(feed.cursor, 'b');
  assert.deepEqual(
    urls.map((u) => u.search),
    [
      '?limit=2&types=product%2Ccategory&fetch_hidden=true',
      '?since=a&limit=2&types=product%2Ccategory&fetch_hidden=true',
    ],
  );
  // Iterated again later, the same feed polls from where it stopped.
  for await (const change of feed) assert.fail(`nothing new, got ${change.id}`);
  assert.equal(urls.at(-1)!.searchParams.get('since'), 'b');
});

test('stopping in the middle of a page leaves the cursor before that page', async () => {
  const { client } = scriptedFeed({
    '': { data: [product(1, 100)], next: 'a', has_more: true },
    a: { data: [product(2, 200), product(3, 300)], next: 'b', has_more: false },
  });
  const feed = client.changes();
  for await (const change of feed) if (change.id === 2) break;
  assert.equal(feed.cursor, 'a', 'entry 3 was not handed out: the next read starts before it');
});

test('bad options are refused before any request; a 410 is a CursorGoneError, an ApiError too', async () => {
  const { client, urls } = scriptedFeed({}, ['old']);
  assert.throws(() => client.changes({ limit: 0 }), /limit must be an integer from 1 to 1000/);
  assert.throws(() => client.changes({ types: [] }), /at least one type/);
  assert.equal(urls.length, 0);
  const error = await (async () => {
    for await (const change of client.changes({ since: 'old' })) void change;
  })().catch((e: unknown) => e);
  assert.ok(error instanceof CursorGoneError && error instanceof ApiError);
  assert.deepEqual([error.status, error.code, error.name], [410, 'gone', 'CursorGoneError']);
});

test('sync() reports the net effect of one call on the mirror', async () => {
  const { client } = scriptedFeed({
    '': { data: [product(1, 100), product(2, 200), product(3, 300)], next: 'a', has_more: false },
    a: { data: [product(1, 150), product(4, 400), deleted('product', 2)], next: 'b', has_more: true },
    // 4 is added then changed within the same call: one addition, in its last state.
    b: { data: [product(4, 450), product(3, 300), deleted('product', 9)], next: 'c', has_more: false },
  });
  const mirror: Mirror = new Map();
  const first = await client.sync(mirror);
  assert.deepEqual(
    [first.added.map((c) => c.id), first.changed, first.removed, first.cursor, first.resynced],
    [[1, 2, 3], [], [], 'a', false],
  );
  const second = await client.sync(mirror, { since: first.cursor });
  assert.deepEqual(
    second.added.map((c) => [c.id, (c.record as { price: number }).price]),
    [[4, 450]],
  );
  assert.deepEqual(
    second.changed.map((c) => [c.id, (c.previous as { price: number }).price, (c.record as { price: number }).price]),
    [[1, 100, 150]],
    'product 3 came again unchanged: not a change',
  );
  assert.deepEqual(
    second.removed.map((c) => [c.id, (c.previous as { price: number }).price]),
    [[2, 200]],
    'a deletion of a record never held is nothing',
  );
  assert.equal(second.cursor, 'c');
  assert.deepEqual([...mirror.keys()], ['product:1', 'product:3', 'product:4']);
});

test('a 410 makes sync() start over from the whole feed, dropping what the feed no longer has', async () => {
  const { client, urls } = scriptedFeed(
    {
      '': { data: [product(1, 100), product(3, 333)], next: 'n', has_more: false },
    },
    ['old'],
  );
  const mirror: Mirror = new Map([
    ['product:1', product(1, 100).record!],
    ['product:2', product(2, 200).record!],
    ['product:3', product(3, 300).record!],
    // A type this sync does not follow is left alone.
    ['user:2', { id: 2 } as never],
  ]);
  const result = await client.sync(mirror, { since: 'old', types: ['product'] });
  assert.equal(result.resynced, true);
  assert.deepEqual(
    [result.added, result.changed.map((c) => c.id), result.removed.map((c) => c.id), result.cursor],
    [[], [3], [2], 'n'],
  );
  assert.deepEqual([...mirror.keys()].sort(), ['product:1', 'product:3', 'user:2']);
  assert.deepEqual(
    urls.map((u) => u.searchParams.get('since')),
    ['old', null],
  );
});

test('syncFile() keeps the mirror and its cursor in one file, and starts over when asked for other types', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'sync-file-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'mirror.json');
  const { client, urls } = scriptedFeed({
    '': { data: [product(1, 100)], next: 'a', has_more: false },
    a: { data: [product(2, 200)], next: 'b', has_more: false },
  });
  const first = await syncFile(client, path, { types: ['product'] });
  assert.deepEqual([first.added.length, first.cursor, first.mirror.size], [1, 'a', 1]);
  const second = await syncFile(client, path, { types: ['product'] });
  assert.deepEqual(
    [second.added.map((c) => c.id), second.cursor, [...second.mirror.keys()]],
    [[2], 'b', ['product:1', 'product:2']],
  );
  const stored = JSON.parse(await readFile(path, 'utf8'));
  assert.deepEqual([stored.cursor, Object.keys(stored.records)], ['b', ['product:1', 'product:2']]);

  await syncFile(client, path, { types: ['product', 'category'] });
  assert.equal(urls.at(-1)!.searchParams.get('since'), null, 'other types: read from the beginning');

  await writeFile(path, '{"cursor": 3');
  await assert.rejects(syncFile(client, path), /mirror\.json is not a mirror written by syncFile\(\); delete it/);
});
