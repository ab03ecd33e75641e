import { join } from 'node:path';
import { connect } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { importDocument } from '../src/import/import.js';
import { createKey } from '../src/keys/repository.js';
import { importJob } from './bulk-imports.js';
import { type LoadResult, load } from './load.js';
import { writeNdjson } from './ndjson.js';
import { generateWithKey, rss, serveApi, watchRss } from './processes.js';
import type { Random } from './random.js';

// `npm run bench -- --shops` (CONTRACT 19): many shops on one deployment.
// - many shops: `projects` projects of PRODUCTS_EACH products and one of `big` products,
//   single products and list pages read at random across all of them at `connections`:
//   p99 and the server's peak RSS; then UNKNOWN requests for random unknown project ids:
//   all 404, and what they add to the RSS.
// - isolation: reads across the shops and price updates of WRITERS of them, alone (the
//   baseline), then the same beside a noisy neighbour: one project importing `importSize`
//   products over HTTP while its own key floods past its rate limit. Its p99s against the
//   baseline's, in the same run.

export const PRODUCTS_EACH = 20;
const UNKNOWN = 20_000;
const WRITERS = 4;
/** a key's budget a minute: the writers (5 a second each) stay under it, the flood does not */
const KEY_MAX = 600;
const WRITE_PAUSE_MS = 200;
const FLOOD_CONNECTIONS = 4;

export interface ShopsOptions {
  backend: 'sqlite' | 'postgres';
  url: string;
  work: string;
  projects: number;
  big: number;
  importSize: number;
  seconds: number;
  connections: number;
  random: Random;
  log(line: string): void;
}

export interface WriteFigures {
  writes: number;
  p99: number;
  max: number;
  /** answers other than 200: 503 (with Retry-After) or anything else */
  refused: Record<string, number>;
}

export interface ShopsRow {
  backend: string;
  projects: number;
  big: number;
  reads: LoadResult;
  peak_rss_mib: number;
  unknown: { requests: number; not_404: number; rss_growth_mib: number; p99: number };
  isolation: {
    import_products: number;
    baseline: { reads: LoadResult; writes: WriteFigures };
    beside: { reads: LoadResult; writes: WriteFigures; flood: LoadResult; import_s: number; import_status: string };
  };
}

export async function shopsBench(o: ShopsOptions): Promise<ShopsRow> {
  const db = ['--database', o.url];
  o.log(`  ${o.projects} projects of ${PRODUCTS_EACH} products, one of ${o.big} (generate)…`);
  const keys = await populate(o);
  await generateWithKey('big', o.url, { products: o.big, orders: 0, users: 0 });
  const server = await serveApi(db, {
    LOG_LEVEL: 'warn',
    STOREFRONT_DEMO: '0',
    RATE_LIMIT: 'on',
    RATE_LIMIT_ADDRESS_MAX: '999999999999',
    RATE_LIMIT_KEY_MAX: String(KEY_MAX),
  });
  try {
    const base = `${server.url}/v2/projects`;
    const ids = Array.from({ length: o.projects }, (_, i) => `shop${i}`);
    const read = () => {
      const big = o.random.int(0, o.projects) === 0;
      const project = big ? 'big' : o.random.pick(ids);
      const id = o.random.int(1, big ? o.big : PRODUCTS_EACH);
      return { path: o.random.int(0, 3) === 0 ? `/${project}/products/?perpage=10` : `/${project}/products/${id}` };
    };
    o.log(`  reads across ${o.projects + 1} projects at ${o.connections} connections…`);
    const peak = watchRss(server.pid);
    const reads = await load(base, { seconds: o.seconds, connections: o.connections, expect: 200, next: read });
    const peakRss = peak();

    o.log(`  ${UNKNOWN} requests for unknown project ids…`);
    const before = rss(server.pid);
    let drawn = 0;
    let enough!: () => void;
    const reached = new Promise<void>((resolve) => (enough = resolve));
    const unknown = await load(base, {
      seconds: 3600,
      connections: o.connections,
      expect: 404,
      next: () => {
        if (++drawn === UNKNOWN) enough();
        return { path: `/nope${o.random.int(0, 1e12)}/products/1` };
      },
      until: reached,
    });
    const growth = rss(server.pid) - before;

    o.log('  isolation: reads and writes of the shops alone…');
    const baseline = await readsAndWrites(base, keys.writers, o, read);
    o.log(`  isolation: the same beside an import of ${o.importSize} products over HTTP and a flood…`);
    const file = join(o.work, `noisy-${o.importSize}.ndjson`);
    await writeNdjson(file, 'noisy', o.importSize);
    const started = performance.now();
    const importing = importJob(`${base}/noisy/imports/`, keys.noisyImport, file, 'application/x-ndjson');
    const done = importing.catch((e: unknown) => `error: ${String(e)}`);
    // A route that needs the key (a public read with a key is not charged to it).
    const flood = load(`${base}/noisy/orders/?perpage=10`, {
      seconds: 3600,
      connections: FLOOD_CONNECTIONS,
      expect: 429,
      headers: { authorization: `Bearer ${keys.noisyFlood}` },
      until: done,
    });
    const beside = await readsAndWrites(base, keys.writers, o, read, done);
    const importStatus = await done;
    const importSeconds = Math.round((performance.now() - started) / 100) / 10;
    return {
      backend: o.backend,
      projects: o.projects,
      big: o.big,
      reads,
      peak_rss_mib: Math.round(peakRss / 2 ** 20),
      unknown: {
        requests: UNKNOWN,
        not_404: unknown.unexpected,
        rss_growth_mib: Math.round((growth / 2 ** 20) * 10) / 10,
        p99: unknown.p99,
      },
      isolation: {
        import_products: o.importSize,
        baseline,
        beside: { ...beside, flood: await flood, import_s: importSeconds, import_status: importStatus },
      },
    };
  } finally {
    await server.stop();
  }
}

/** The shops, written in this process before the server starts; keys of the writers and the noisy neighbour. */
async function populate(o: ShopsOptions): Promise<{ writers: string[]; noisyImport: string; noisyFlood: string }> {
  const storage = connect(o.url, { longRunning: true });
  try {
    await migrateToLatest(storage.db);
    for (let i = 0; i < o.projects; i++) {
      const products = Array.from({ length: PRODUCTS_EACH }, (_, n) => ({
        id: n + 1,
        handle: `p-${n + 1}`,
        name: `Product ${n + 1} of shop ${i}`,
        price: 100 + n,
      }));
      await importDocument(storage.db, { project: { id: `shop${i}`, name: `Shop ${i}`, currency: 'EUR' }, products });
    }
    await importDocument(storage.db, { project: { id: 'noisy', name: 'Noisy', currency: 'USD' } });
    const writers = [];
    for (let i = 0; i < WRITERS; i++) writers.push((await createKey(storage, `shop${i}`, 'bench')).key);
    const noisyImport = (await createKey(storage, 'noisy', 'import')).key;
    const noisyFlood = (await createKey(storage, 'noisy', 'flood')).key;
    return { writers, noisyImport, noisyFlood };
  } finally {
    await storage.close();
  }
}

/** Reads at `connections` and one price updater per writer key, for `seconds` or until `until`. */
async function readsAndWrites(
  base: string,
  writers: string[],
  o: ShopsOptions,
  read: () => { path: string },
  until?: Promise<unknown>,
): Promise<{ reads: LoadResult; writes: WriteFigures }> {
  let stop = false;
  const times: number[] = [];
  const refused: Record<string, number> = {};
  const writer = async (key: string, i: number) => {
    for (let n = 1; !stop; n++) {
      const started = performance.now();
      try {
        const answer = await fetch(`${base}/shop${i}/products/1`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ price: 100 + (n % 1000) }),
          signal: AbortSignal.timeout(30_000),
        });
        await answer.arrayBuffer();
        if (answer.status !== 200) {
          const why = answer.status === 503 && answer.headers.get('retry-after') ? '503' : String(answer.status);
          refused[why] = (refused[why] ?? 0) + 1;
        }
      } catch (e) {
        const why = (e as Error).name === 'TimeoutError' ? 'no answer in 30 s' : 'dropped';
        refused[why] = (refused[why] ?? 0) + 1;
      }
      times.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, WRITE_PAUSE_MS));
    }
  };
  const writing = writers.map((key, i) => writer(key, i));
  const reads = await load(base, {
    seconds: until ? 3600 : o.seconds,
    connections: o.connections,
    expect: 200,
    next: read,
    until,
  });
  stop = true;
  await Promise.all(writing);
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0);
  return { reads, writes: { writes: times.length, p99: at(0.99), max: at(1), refused } };
}

/** The rows as Markdown tables. */
export function shopsTable(rows: ShopsRow[]): string {
  const lines = [
    '| backend | projects | reads p99 ms | req/s | unexpected | peak RSS MiB | unknown ids: p99 ms, not 404, RSS growth MiB |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.backend} | ${r.projects} × ${PRODUCTS_EACH} + ${r.big} | ${r.reads.p99} | ${Math.round(r.reads.rps)} | ${r.reads.unexpected} | ${r.peak_rss_mib} | ${r.unknown.p99}, ${r.unknown.not_404}, ${r.unknown.rss_growth_mib} |`,
    );
  lines.push(
    '',
    '| backend | import | reads p99 ms: alone → beside | writes p99 / max ms: alone → beside | writes refused beside | flood req/s (429) | import s, status |',
    '|---|---|---|---|---|---|---|',
  );
  for (const r of rows) {
    const { baseline: a, beside: b } = r.isolation;
    lines.push(
      `| ${r.backend} | ${r.isolation.import_products} | ${a.reads.p99} → ${b.reads.p99} | ${a.writes.p99} / ${a.writes.max} → ${b.writes.p99} / ${b.writes.max} | ${JSON.stringify(b.writes.refused)} | ${Math.round(b.flood.rps)} | ${b.import_s}, ${b.import_status} |`,
    );
  }
  return lines.join('\n');
}
