import assert from 'node:assert/strict';

// A reader of the change feed as a user writes one: a mirror of every record by type,
// filled by applying entries (upsert: keep the record; delete: drop it), and the same
// records read from the lists, to compare the two.

export type Get = (path: string) => Promise<{ status: number; body: any; headers?: Record<string, unknown> }>;
export type Mirror = Map<string, Map<number, unknown>>;

export interface Follow {
  next: string | undefined;
  /** the answers read, each checked to hold every (type, id) at most once */
  pages: number;
  entries: number;
}

/** Applies pages of the feed from `since` until has_more is false. */
export async function follow(
  get: Get,
  mirror: Mirror,
  since: string | undefined,
  query = '',
  limit = 100,
): Promise<Follow> {
  let next = since;
  let pages = 0;
  let entries = 0;
  for (;;) {
    const res = await get(`/changes/?limit=${limit}${query}${next === undefined ? '' : `&since=${next}`}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const seen = new Set<string>();
    for (const e of res.body.data) {
      const key = `${e.type}:${e.id}`;
      assert.ok(!seen.has(key), `${key} twice in one answer`);
      seen.add(key);
      let of = mirror.get(e.type);
      if (!of) mirror.set(e.type, (of = new Map()));
      if (e.action === 'upsert') of.set(e.id, e.record);
      else {
        assert.equal(e.record, null);
        of.delete(e.id);
      }
    }
    pages++;
    entries += res.body.data.length;
    assert.equal(typeof res.body.next, 'string');
    next = res.body.next;
    if (!res.body.has_more) return { next, pages, entries };
  }
}

/** Every page of a paged list (products, users, orders). */
async function allPages(get: Get, path: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const res = await get(`${path}${path.includes('?') ? '&' : '?'}perpage=100&page=${page}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    out.push(...res.body.data);
    if (page >= res.body.meta.pages) return out;
  }
}

function flatten(tree: any[]): any[] {
  return tree.flatMap(({ subcategories, ...c }) => [c, ...flatten(subcategories)]);
}

/** What the lists show now, by type, in the mirror's shape. */
export async function fromLists(get: Get, types: string[]): Promise<Mirror> {
  const out: Mirror = new Map();
  const put = (type: string, records: any[]) => out.set(type, new Map(records.map((r) => [r.id, r])));
  if (types.includes('product')) put('product', await allPages(get, '/products/'));
  if (types.includes('category')) put('category', flatten((await get('/categories/')).body));
  if (types.includes('plan')) put('plan', (await get('/plans/')).body.data);
  if (types.includes('user')) put('user', await allPages(get, '/users/'));
  if (types.includes('order')) put('order', await allPages(get, '/orders/'));
  return out;
}

/** The mirror as sorted plain data, for deepEqual and readable diffs. */
export function plain(mirror: Mirror, types: string[]): Record<string, unknown[]> {
  return Object.fromEntries(
    types.map((t) => [t, [...(mirror.get(t) ?? new Map()).entries()].sort(([a], [b]) => a - b).map(([, r]) => r)]),
  );
}
