import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { type Storage, connect } from '../src/db/connect.js';
import { type Case, type Request, cases, heavySearch } from './cases.js';
import { type LoadResult, load } from './load.js';
import { type ImportContext, afterImportPlans, importAlone, importFile, importWhileServing } from './imports.js';
import { bulkImports, bulkTable } from './bulk-imports.js';
import { type Pools, readPools } from './pools.js';
import { type LiveRow, liveShop, liveTable } from './live-shop.js';
import { replicaBench, replicaTable } from './replicas.js';
import {
  ROOT,
  type Server,
  freePort,
  rss,
  runCli,
  serveApi,
  startServer,
  useServerRoot,
  watchRss,
} from './processes.js';
import { csvRoundTrip, csvTable } from './csv-exports.js';
import { searchBench } from './search.js';
import { type ShopsRow, shopsBench, shopsTable } from './shops.js';
import { type Random, chooseSeed, seeded } from './random.js';
import {
  type BulkImportRow,
  type CsvRow,
  type GenerateRow,
  type ImportRow,
  type Phase,
  type PlanCheck,
  type QueryRow,
  type Run,
  printRun,
  printTargets,
} from './report.js';

// `npm run bench`: generates catalogs of each size on each backend, starts the API server on
// them (rate limiter on), and measures each case with inputs drawn at random from a seed,
// cold (right after a write) and warm, beside a bare node:http server answering bodies of the
// same size in the same run; then single products beside heavy searches, and reads while
// `storefront import` writes in another process. `--smoke` runs tiny data for a few seconds (CI).

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,1000000' },
    backends: { type: 'string', default: 'sqlite,postgres' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    import: { type: 'string' },
    seed: { type: 'string', default: process.env.BENCH_SEED },
    postgres: {
      type: 'string',
      default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
    'no-cache': { type: 'boolean', default: false },
    /** only the read cases on a private primary with one streaming standby against the primary alone (bench/replicas.ts) */
    replicas: { type: 'boolean', default: false },
    /** only the many-shops cases (bench/shops.ts): reads across --projects shops and one of --big products, isolation beside an import of --import */
    shops: { type: 'boolean', default: false },
    projects: { type: 'string', default: '2000' },
    big: { type: 'string', default: '100000' },
    /** only the shopper search cases (bench/search.ts): q, facets, recall beside MiniSearch */
    search: { type: 'boolean', default: false },
    /** only the live-shop cases: reads beside order updates, stock updates and imports */
    live: { type: 'boolean', default: false },
    /** only the bulk loads (bulk-imports.ts): --import products by the CLI and over HTTP beside reads */
    'bulk-imports': { type: 'boolean', default: false },
    /** only the read cases whose names contain one of these (comma-separated), e.g. `ids,handle` */
    cases: { type: 'string' },
    /** only the CSV round trip (csv-exports.ts): the catalog exported as CSV, imported again over HTTP and by the CLI */
    exports: { type: 'boolean', default: false },
    /** measure the server and CLI of another checkout (built), e.g. main before a change */
    'server-root': { type: 'string' },
    smoke: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
    warmup: { type: 'string', default: '2' },
    out: { type: 'string', default: join(ROOT, 'bench', 'results') },
  },
});

if (values.help) {
  // The options and what each measures are documented in one place.
  console.log('usage: npm run bench -- [options]; every option and what it measures: docs/PERFORMANCE.md, "Reproduce"');
  process.exit(0);
}
const smoke = values.smoke;
const liveOnly = values.live;
const bulkOnly = values['bulk-imports'];
const caseNames = values.cases?.split(',').map((n) => n.trim().toLowerCase());
const csvOnly = values.exports;
if (values['server-root']) useServerRoot(values['server-root']);
const sizes = (smoke ? '300' : values.sizes).split(',').map(Number);
const backends = values.backends.split(',') as ('sqlite' | 'postgres')[];
const seconds = smoke ? 0.3 : Number(values.duration);
const connections = smoke ? 4 : Number(values.connections);
const warmup = smoke ? 0 : Number(values.warmup);
/** products written by the import that runs beside the reads (default: the size measured) */
const importOption = values.import === undefined ? undefined : Number(values.import);
let importSize = 0;
const seed = chooseSeed(values.seed);
const PROJECT = 'bench';
/** requests per window no load of the bench reaches (the limiter's largest allowed value) */
const UNREACHED_BUDGET = 999_999_999_999;
const HEAVY_CONNECTIONS = 4;
/** answers of each case whose status and exact total are checked */
const CHECKS = 3;

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'storefront-bench-'));
  process.stderr.write(`bench: seed ${seed} (BENCH_SEED=${seed} draws the same inputs again)\n`);
  const run: Run = {
    started_at: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? '?',
      memory_gib: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    options: {
      sizes,
      backends,
      seconds,
      warmup,
      connections,
      cache: !values['no-cache'],
      smoke,
      seed,
      live: liveOnly,
      server_root: values['server-root'] ?? ROOT,
    },
    results: [],
    imports: [],
    generates: [],
    plan_checks: [],
    live: [],
    bulk_imports: [],
    csv: [],
  };
  mkdirSync(values.out, { recursive: true });
  const file = join(values.out, `${run.started_at.replace(/[:.]/g, '-')}${smoke ? '-smoke' : ''}.json`);
  // Written after every step, so that a long run that is stopped still leaves its figures.
  const save = () => writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  if (values.replicas) {
    const options = { size: sizes[0], seconds, connections, random: seeded(seed + sizes[0]), log };
    const replicas = await replicaBench(options);
    writeFileSync(file, `${JSON.stringify({ ...run, replicas }, null, 2)}\n`);
    process.stdout.write(`seed ${seed}\n\n${replicaTable(replicas)}\n\nwritten to ${file}\n`);
    return;
  }
  if (values.shops) {
    const rows: ShopsRow[] = [];
    for (const backend of backends) {
      const db = await createDatabase(backend, work, 'shops');
      try {
        log(`${backend}: many shops`);
        const projects = smoke ? 20 : Number(values.projects);
        const big = smoke ? 200 : Number(values.big);
        const importSize = smoke ? 300 : (importOption ?? 200_000);
        const random = seeded(seed + projects);
        rows.push(
          await shopsBench({
            backend,
            url: db.url,
            work,
            projects,
            big,
            importSize,
            seconds,
            connections,
            random,
            log,
          }),
        );
        writeFileSync(file, `${JSON.stringify({ ...run, shops: rows }, null, 2)}\n`);
      } finally {
        await db.drop();
      }
    }
    rmSync(work, { recursive: true, force: true });
    process.stdout.write(`seed ${seed}\n\n${shopsTable(rows)}\n\nwritten to ${file}\n`);
    return;
  }
  const basePort = await freePort();
  const baseline = await startServer(
    [join(ROOT, 'dist', 'bench', 'baseline-server.js'), String(basePort)],
    basePort,
    '/2',
  );
  try {
    for (const backend of backends) {
      for (const size of sizes) {
        importSize = importOption ?? size;
        const db = await createDatabase(backend, work, `${size}`);
        try {
          const measured = await measureSize(backend, size, db.url, baseline, work);
          run.results.push(...measured.rows);
          run.imports.push(...measured.imports);
          run.generates!.push(measured.generated);
          run.live!.push(...measured.live);
          run.bulk_imports!.push(...measured.bulk);
          run.csv!.push(...measured.csv);
          if (measured.planCheck) run.plan_checks!.push(measured.planCheck);
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
  process.stdout.write(`seed ${seed}\n\n`);
  if (bulkOnly) {
    process.stdout.write(`Bulk loads\n\n${bulkTable(run.bulk_imports!)}\n`);
    return;
  }
  if (csvOnly) {
    process.stdout.write(`CSV export and import\n\n${csvTable(run.csv!)}\n`);
    return;
  }
  if (!liveOnly) {
    printRun(run);
    process.stdout.write('\n');
    printTargets(run);
  }
  process.stdout.write(`\nA live shop: the popular pages read beside writes\n\n${liveTable(run.live!)}\n`);
  process.stdout.write(`\nCSV export and import\n\n${csvTable(run.csv!)}\n`);
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
  work: string,
): Promise<{
  rows: QueryRow[];
  imports: ImportRow[];
  generated: GenerateRow;
  planCheck?: PlanCheck;
  live: LiveRow[];
  bulk: BulkImportRow[];
  csv: CsvRow[];
}> {
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
  log(`  ${gen.stdout.trim()}; peak RSS ${round(gen.peakRss / 2 ** 20, 0)} MiB`);
  const generated: GenerateRow = {
    backend,
    products: size,
    seconds: round(gen.seconds, 1),
    peak_rss_mib: round(gen.peakRss / 2 ** 20, 0),
  };
  const key = (await runCli(['key', 'create', PROJECT, '--label', 'bench', ...db])).stdout.trim();

  // The rate limiter runs as it ships, with budgets no load here reaches: its cost is part of
  // every figure, its 429s are not.
  const env: Record<string, string> = {
    LOG_LEVEL: 'warn',
    STOREFRONT_DEMO: '0',
    RATE_LIMIT: 'on',
    RATE_LIMIT_ADDRESS_MAX: String(UNREACHED_BUDGET),
    RATE_LIMIT_KEY_MAX: String(UNREACHED_BUDGET),
  };
  if (values['no-cache']) Object.assign(env, { STOREFRONT_ANSWER_CACHE: '0', STOREFRONT_COUNT_CACHE: '0' });
  const server = await serveApi(db, env, { probe: '/v2/projects/none/plans/' });
  const stopRss = watchRss(server.pid);
  // Its own statements (the search index's disk, a count of 18M postings at 1M) may take long.
  const storage = connect(url, { longRunning: true });
  const rows: QueryRow[] = [];
  const imports: ImportRow[] = [];
  const live: LiveRow[] = [];
  const bulk: BulkImportRow[] = [];
  const csv: CsvRow[] = [];
  let planCheck: PlanCheck | undefined;
  const base = `${server.url}/v2/projects/${PROJECT}`;
  const bareLoad = (bytes: number) =>
    load(`${baseline.url}/${Math.max(bytes, 2)}`, { seconds, connections, expect: 200 });
  const row = (query: string, phase: Phase, api: LoadResult, bare: LoadResult, extra: Partial<QueryRow> = {}) => {
    const r: QueryRow = {
      backend,
      size,
      query,
      phase,
      api,
      baseline: bare,
      ratio: round(api.rps / bare.rps, 3),
      ...extra,
    };
    rows.push(r);
    log(
      `  ${query} (${phase}): ${Math.round(api.rps)} req/s (bare ${Math.round(bare.rps)}, ${Math.round(r.ratio! * 100)}%), p50 ${api.p50} ms, p99 ${api.p99} ms, unexpected ${api.unexpected}${api.unexpected_by ? ` ${JSON.stringify(api.unexpected_by)}` : ''}${r.totals_ok === false ? ', WRONG TOTAL' : ''}`,
    );
    return r;
  };
  try {
    const pools = await readPools(storage, PROJECT, key);
    const touch = invalidator(base, pools);
    // Each size draws from its own stream of the seed: the same inputs on every backend.
    const random = seeded(seed + size);
    const liveCases = () =>
      liveShop({
        backend,
        size,
        base,
        url,
        storage,
        pools,
        random,
        seconds,
        warmup,
        connections,
        serverPid: server.pid,
        log,
      });
    if (values.search) {
      const found = await searchBench({ backend, size, base, project: PROJECT, storage, random, seconds, key, log });
      writeFileSync(
        join(values.out, `search-${backend}-${size}-${Date.now()}.json`),
        `${JSON.stringify(found, null, 2)}\n`,
      );
      return { rows, imports, generated, planCheck, live, bulk, csv };
    }
    if (liveOnly && !caseNames) {
      live.push(...(await liveCases()));
      return { rows, imports, generated, planCheck, live, bulk, csv };
    }
    const importContext = (): ImportContext => ({
      backend,
      products: importSize,
      work,
      db,
      storage,
      origin: server.url,
      random,
      connections,
      log,
    });
    if (bulkOnly) {
      bulk.push(...(await bulkImports(importContext(), server, base, cases(pools))));
      return { rows, imports, generated, planCheck, live, bulk, csv };
    }
    const csvCases = async () =>
      csv.push(...(await csvRoundTrip({ backend, products: size, work, db, project: PROJECT, key, log }, server)));
    if (csvOnly) {
      await csvCases();
      return { rows, imports, generated, planCheck, live, bulk, csv };
    }
    const bodies: number[] = [];
    const chosen = cases(pools).filter((c) => !caseNames || caseNames.some((n) => c.name.toLowerCase().includes(n)));
    for (const c of chosen) {
      // Cold: right after a write (every cache of the project is stale), inputs never asked before.
      await touch();
      const asked: Request[] = [];
      const cold = await load(base, {
        seconds,
        connections,
        expect: c.expect,
        next: () => {
          const drawn = c.draw(random);
          if (asked.length < 100_000) asked.push(drawn);
          return drawn;
        },
      });
      // Warm: the same inputs again, now in the caches (as far as they hold them).
      if (warmup > 0)
        await load(base, { seconds: warmup, connections, expect: c.expect, next: () => random.pick(asked) });
      const warm = await load(base, { seconds, connections, expect: c.expect, next: () => random.pick(asked) });
      const check = await checkAnswers(base, storage, c, asked, random);
      bodies.push(check.bytes);
      const bare = await bareLoad(check.bytes);
      const extra = { bytes: check.bytes, totals_ok: check.totalsOk };
      row(c.name, 'cold', cold, bare, extra);
      row(c.name, 'warm', warm, bare, extra);
      log(`    server RSS ${round(rss(server.pid) / 2 ** 20, 0)} MiB`);
    }
    if (caseNames) {
      // `--cases … --live`: the live shop after the cases named, on the same catalog.
      if (liveOnly) live.push(...(await liveCases()));
      return { rows, imports, generated, planCheck, live, bulk, csv };
    }

    // One request asked again with its ETag: the cheapest answer there is.
    const list = await fetch(`${base}/products/`);
    const listBytes = Buffer.byteLength(await list.text());
    const etag = list.headers.get('etag')!;
    const revalidate = await load(`${base}/products/`, {
      seconds,
      connections,
      expect: 304,
      headers: { 'if-none-match': etag },
    });
    row('revalidate (304)', 'warm', revalidate, await bareLoad(2), { bytes: listBytes });

    // Single products beside connections that send the worst searches (issue 14).
    const product = cases(pools)[0];
    await touch();
    const heavy = heavySearch(pools);
    const [beside, searches] = await Promise.all([
      load(base, { seconds, connections, expect: 200, next: () => product.draw(random) }),
      load(base, { seconds, connections: HEAVY_CONNECTIONS, expect: 200, next: () => heavy.draw(random) }),
    ]);
    row(`product beside ${HEAVY_CONNECTIONS} heavy searches`, 'cold', beside, await bareLoad(bodies[0]), {
      side: { name: 'heavy searches', ...searches },
    });
    log(`    server RSS ${round(rss(server.pid) / 2 ** 20, 0)} MiB`);

    // A live shop: the popular pages beside order updates, stock updates and imports.
    live.push(...(await liveCases()));
    log(`    server RSS ${round(rss(server.pid) / 2 ** 20, 0)} MiB`);

    // The write side: an import alone, the reads right after it, an import beside reads of every case.
    if (importSize > 0) {
      const ctx = importContext();
      const alone = await importFile(ctx, 'imported');
      imports.push(await importAlone(ctx, 'imported', alone.path));
      alone.remove();
      planCheck = await afterImportPlans(ctx, 'imported');
      const beside = await importFile(ctx, 'imported-2');
      await touch();
      const { reads, imported } = await importWhileServing(ctx, beside.path, base, cases(pools));
      beside.remove();
      imports.push(imported);
      const mean = Math.round(bodies.reduce((a, b) => a + b, 0) / bodies.length);
      row(`reads during an import of ${importSize}`, 'cold', reads, await bareLoad(mean));
    }

    // Last, as it replaces every product of the catalog: the CSV export and its import.
    await csvCases();
  } finally {
    const peak = stopRss();
    await storage.close();
    await server.stop();
    for (const r of rows) r.server_rss_mib = round(peak / 2 ** 20, 0);
    log(`  server peak RSS ${round(peak / 2 ** 20, 0)} MiB`);
  }
  return { rows, imports, generated, planCheck, live, bulk, csv };
}

/**
 * Checks a few of the answers a case got: the expected status, the exact total (against a
 * count of its own) where the case has one; gives their mean body size, for the bare server.
 */
async function checkAnswers(
  base: string,
  storage: Storage,
  c: Case,
  asked: Request[],
  random: Random,
): Promise<{ bytes: number; totalsOk?: boolean }> {
  let bytes = 0;
  let totalsOk: boolean | undefined;
  const samples = Array.from({ length: CHECKS }, () => (asked.length ? random.pick(asked) : c.draw(random)));
  for (const q of samples) {
    const res = await fetch(base + q.path, { headers: q.headers });
    const text = await res.text();
    if (res.status !== c.expect)
      throw new Error(`${c.name}: GET ${q.path} answered ${res.status}: ${text.slice(0, 200)}`);
    bytes += Buffer.byteLength(text);
    if (!q.total) continue;
    const total = (JSON.parse(text) as { meta: { total: number } }).meta.total;
    const where = sql.raw(`project_id = '${PROJECT}' and ${q.total.where}`);
    const counted = await sql<{
      n: number;
    }>`select count(*) as n from ${sql.table(q.total.table)} where ${where}`.execute(storage.db);
    const ok = Number(counted.rows[0].n) === total;
    totalsOk = (totalsOk ?? true) && ok;
    if (!ok) log(`  ${c.name}: GET ${q.path} total ${total}, counted ${counted.rows[0].n}`);
  }
  return { bytes: Math.round(bytes / samples.length), totalsOk };
}

/**
 * Writes that change nothing but versions: a product and an order saved unchanged, so that
 * every cache of the project (keyed by the versions of the types each answer shows) is stale.
 */
function invalidator(base: string, pools: Pools): () => Promise<void> {
  const handle = pools.handles[0];
  const auth = { authorization: `Bearer ${pools.key}` };
  const save = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`the invalidating write answered ${res.status}: ${await res.text()}`);
  };
  return async () => {
    const product = (await (await fetch(`${base}/products/${handle}`)).json()) as { price: number };
    await save(`/products/${handle}`, { price: product.price });
    const orders = (await (await fetch(`${base}/orders/?perpage=1`, { headers: auth })).json()) as {
      data: { id: number; payment_status: string }[];
    };
    if (orders.data[0]) await save(`/orders/${orders.data[0].id}`, { payment_status: orders.data[0].payment_status });
  };
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
