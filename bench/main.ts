import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { connect } from '../src/db/connect.js';
import { load } from './load.js';
import { writeNdjson } from './ndjson.js';
import { CLI, ROOT, type Server, freePort, runCli, startServer, watchRss } from './processes.js';
import { type Fixtures, queries } from './queries.js';
import { type ImportRow, type QueryRow, type Run, printRun, printTargets } from './report.js';

// `npm run bench`: generates catalogs of each size on each backend, starts the API server on
// them, and measures every query with autocannon beside a bare node:http baseline answering
// a body of the same size. `--smoke` runs tiny data for a few seconds (CI).

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,1000000' },
    backends: { type: 'string', default: 'sqlite,postgres' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    import: { type: 'string' },
    postgres: {
      type: 'string',
      default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
    'no-cache': { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    warmup: { type: 'string', default: '2' },
    out: { type: 'string', default: join(ROOT, 'bench', 'results') },
  },
});

const smoke = values.smoke;
const sizes = (smoke ? '300' : values.sizes).split(',').map(Number);
const backends = values.backends.split(',') as ('sqlite' | 'postgres')[];
const seconds = smoke ? 0.3 : Number(values.duration);
const connections = smoke ? 4 : Number(values.connections);
const warmup = smoke ? 0 : Number(values.warmup);
const importSize = Number(values.import ?? (smoke ? 300 : Math.max(...sizes)));
const PROJECT = 'bench';

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'storefront-bench-'));
  const run: Run = {
    started_at: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? '?',
      memory_gib: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    options: { sizes, backends, seconds, warmup, connections, cache: !values['no-cache'], smoke },
    results: [],
    imports: [],
  };
  mkdirSync(values.out, { recursive: true });
  const file = join(values.out, `${run.started_at.replace(/[:.]/g, '-')}${smoke ? '-smoke' : ''}.json`);
  // Written after every step, so that a long run that is stopped still leaves its figures.
  const save = () => writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  const basePort = await freePort();
  const baseline = await startServer(
    [join(ROOT, 'dist', 'bench', 'baseline-server.js'), String(basePort)],
    basePort,
    '/2',
  );
  try {
    for (const backend of backends) {
      for (const size of sizes) {
        const db = await createDatabase(backend, work, `${size}`);
        try {
          run.results.push(...(await measureSize(backend, size, db.url, baseline)));
          save();
        } finally {
          await db.drop();
        }
      }
      if (importSize > 0) {
        const db = await createDatabase(backend, work, 'import');
        try {
          run.imports.push(await measureImport(backend, importSize, db.url, work));
          save();
        } finally {
          await db.drop();
        }
      }
    }
  } finally {
    await baseline.stop();
    rmSync(work, { recursive: true, force: true });
  }
  run.finished_at = new Date().toISOString();
  save();
  printRun(run);
  process.stdout.write('\n');
  printTargets(run);
  process.stdout.write(`\nwritten to ${file}\n`);
}

async function createDatabase(
  backend: 'sqlite' | 'postgres',
  work: string,
  label: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (backend === 'sqlite') {
    const path = join(work, `bench-${label}.db`);
    return { url: `sqlite:${path}`, drop: async () => rmSync(path, { force: true }) };
  }
  const name = `storefront_bench_${process.pid}_${label}`;
  const admin = async (text: string) => {
    const c = new pg.Client({ connectionString: values.postgres });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  await admin(`drop database if exists ${name}`);
  await admin(`create database ${name}`);
  const url = new URL(values.postgres);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

async function measureSize(
  backend: 'sqlite' | 'postgres',
  size: number,
  url: string,
  baseline: Server,
): Promise<QueryRow[]> {
  const db = ['--database', url];
  const orders = Math.max(100, Math.round(size / 10));
  const users = Math.max(20, Math.round(size / 100));
  log(`${backend} ${size}: generating ${size} products, ${orders} orders, ${users} users…`);
  const gen = await runCli([
    'generate',
    PROJECT,
    '--products',
    String(size),
    '--orders',
    String(orders),
    '--users',
    String(users),
    ...db,
  ]);
  log(`  ${gen.stdout.trim()}`);
  const key = (await runCli(['key', 'create', PROJECT, '--label', 'bench', ...db])).stdout.trim();

  const port = await freePort();
  // One address sending tens of thousands of requests a second is what the rate limiter is
  // for: off here, since the bench measures the API's throughput, not the limiter's 429s.
  const env: Record<string, string> = { LOG_LEVEL: 'warn', STOREFRONT_DEMO: '0', RATE_LIMIT: 'off' };
  if (values['no-cache']) Object.assign(env, { STOREFRONT_ANSWER_CACHE: '0', STOREFRONT_COUNT_CACHE: '0' });
  const server = await startServer(
    [CLI, 'serve', '--port', String(port), ...db],
    port,
    '/v2/projects/none/plans/',
    env,
  );
  const stopRss = watchRss(server.pid);
  const storage = connect(url);
  const rows: QueryRow[] = [];
  try {
    const base = `${server.url}/v2/projects/${PROJECT}`;
    const fixtures = await findFixtures(base, key, size);
    for (const q of queries(fixtures)) {
      const target = base + q.path;
      // The first answer, before any cache holds it: what a cold query costs.
      const t0 = performance.now();
      const first = await fetch(target, { headers: q.headers });
      const text = await first.text();
      const firstMs = performance.now() - t0;
      if (first.status !== q.expect) {
        log(`  ${q.name}: missing (HTTP ${first.status})`);
        rows.push({ backend, size, query: q.name, missing: `HTTP ${first.status}` });
        continue;
      }
      let total: number | undefined;
      let totalOk: boolean | undefined;
      if (q.total) {
        total = (JSON.parse(text) as { meta: { total: number } }).meta.total;
        const where = sql.raw(`project_id = '${PROJECT}' and ${q.total.where}`);
        const row = await sql<{
          n: number;
        }>`select count(*) as n from ${sql.table(q.total.table)} where ${where}`.execute(storage.db);
        totalOk = Number(row.rows[0].n) === total;
      }
      const bytes = Buffer.byteLength(text);
      // Warm-up: let the JIT compile the paths of this query before it is measured.
      if (warmup > 0) await load(target, { seconds: warmup, connections, headers: q.headers, expect: q.expect });
      const api = await load(target, { seconds, connections, headers: q.headers, expect: q.expect });
      const bare = await load(`${baseline.url}/${Math.max(bytes, 2)}`, { seconds, connections, expect: 200 });
      const row: QueryRow = {
        backend,
        size,
        query: q.name,
        bytes,
        first_ms: round(firstMs),
        api,
        baseline: bare,
        ratio: round(api.rps / bare.rps, 3),
        total,
        total_ok: totalOk,
      };
      log(
        `  ${q.name}: ${Math.round(api.rps)} req/s (baseline ${Math.round(bare.rps)}, ${Math.round(row.ratio! * 100)}%), p50 ${api.p50} ms, p99 ${api.p99} ms${total === undefined ? '' : `, total ${total}${totalOk ? '' : ' WRONG'}`}`,
      );
      rows.push(row);
    }
  } finally {
    const peak = stopRss();
    await storage.close();
    await server.stop();
    for (const r of rows) r.server_rss_mib = round(peak / 2 ** 20, 0);
    log(`  server peak RSS ${round(peak / 2 ** 20, 0)} MiB`);
  }
  return rows;
}

/** A visible product in the middle of the catalog, its category, 50 spread ids, an ETag. */
async function findFixtures(base: string, key: string, size: number): Promise<Fixtures> {
  const get = async (path: string) => {
    const res = await fetch(base + path);
    if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status}`);
    return { body: await res.json(), etag: res.headers.get('etag')! };
  };
  const middle = await get(`/products/?perpage=1&page=${Math.max(1, Math.floor(size / 2))}`);
  const p = middle.body.data[0];
  const ids = Array.from({ length: 50 }, (_, i) => 1 + Math.floor((i * size) / 50));
  const etag = (await get('/products/')).etag;
  return { project: PROJECT, key, handle: p.handle, categoryId: p.category_ids[0], ids, search: 'jor', etag };
}

async function measureImport(backend: 'sqlite' | 'postgres', n: number, url: string, work: string): Promise<ImportRow> {
  const file = join(work, 'import.ndjson');
  log(`${backend}: writing an NDJSON file of ${n} products…`);
  await writeNdjson(file, 'imported', n);
  await runCli(['migrate', '--database', url]);
  log(`${backend}: storefront import of ${n} products…`);
  const result = await runCli(['import', file, '--database', url]);
  rmSync(file, { force: true });
  log(`  ${result.stdout.trim()}; peak RSS ${round(result.peakRss / 2 ** 20, 0)} MiB`);
  return { backend, products: n, seconds: round(result.seconds, 1), peak_rss_mib: round(result.peakRss / 2 ** 20, 0) };
}

function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

main().catch((e) => {
  process.stderr.write(`bench: ${(e as Error).stack ?? e}\n`);
  process.exitCode = 1;
});
