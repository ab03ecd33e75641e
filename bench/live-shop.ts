import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import type { Storage } from '../src/db/connect.js';
import type { Request } from './cases.js';
import type { WriterJob, WriterReport } from './live-writer.js';
import { type LoadResult, load } from './load.js';
import type { Pools } from './pools.js';
import { ROOT, cpuMs, serverRootOf, watchRss } from './processes.js';
import type { Random } from './random.js';

// A live shop (issue 26): a storefront's popular pages read while orders arrive and change,
// stock moves and a back office imports. Each load of writes runs beside the same reads, and
// is compared with the reads alone measured right before it (the machine's speed at that
// moment cancels out of the ratio). The writes are sent at a fixed rate from a thread of
// their own (live-writer.ts); the figures are the reads' rate and p99 and the writes' p99.

export interface LiveRow {
  backend: string;
  size: number;
  load: string;
  alone: LoadResult;
  reads: LoadResult;
  /** reads/s beside the writes over reads/s alone */
  ratio: number;
  writes: { done: number; failed: number; p50: number; p99: number };
  /** the server's CPU time per 1,000 reads, alone and beside the writes (ms; the writes' own CPU included) */
  cpu_per_1000: { alone: number; beside: number };
  /** the server's peak RSS while the reads ran beside the writes (MiB) */
  server_rss_mib: number;
}

interface Load {
  name: string;
  job: Pick<WriterJob, 'kind' | 'perSecond'>;
}

const LOADS: Load[] = [
  { name: '2 order updates/s', job: { kind: 'order', perSecond: 2 } },
  { name: '10 order updates/s', job: { kind: 'order', perSecond: 10 } },
  { name: '10 stock updates/s', job: { kind: 'stock', perSecond: 10 } },
  { name: 'import of 500 orders every 2 s', job: { kind: 'import', perSecond: 0.5 } },
];

export interface LiveContext {
  backend: string;
  size: number;
  base: string;
  url: string;
  storage: Storage;
  pools: Pools;
  random: Random;
  seconds: number;
  warmup: number;
  connections: number;
  /** the server process: its CPU time and RSS are sampled */
  serverPid: number;
  log(line: string): void;
}

/**
 * The popular pages of a storefront, 310 of them: 50 categories × pages 1 and 2 × two orders,
 * 100 products, 10 searches; each request draws one at random.
 */
function popularPages(p: Pools, r: Random): Request[] {
  const pages: Request[] = [];
  const categories = Array.from({ length: 50 }, () => r.pick(p.categoryIds));
  for (const id of categories)
    for (const page of [1, 2])
      for (const order of ['date_desc', 'price_asc'])
        pages.push({ path: `/products/?category=${id}&page=${page}&order=${order}` });
  for (let i = 0; i < 100; i++) pages.push({ path: `/products/${r.pick(p.handles)}` });
  for (let i = 0; i < 10; i++) pages.push({ path: `/products/?search=${r.pick(p.terms)}` });
  return pages;
}

export async function liveShop(ctx: LiveContext): Promise<LiveRow[]> {
  const { storage, pools, random } = ctx;
  const pages = popularPages(pools, random);
  const reads = (seconds: number) =>
    load(ctx.base, { seconds, connections: ctx.connections, expect: 200, next: () => random.pick(pages) });
  // CPU per 1,000 reads: what a read costs the server, which the load on a shared machine
  // changes far less than the rate.
  const measured = async (seconds: number) => {
    const cpuBefore = cpuMs(ctx.serverPid);
    const result = await reads(seconds);
    const requests = result.rps * seconds;
    const perThousand = requests > 0 ? Math.round(((cpuMs(ctx.serverPid) - cpuBefore) / requests) * 1000) : 0;
    return { result, perThousand };
  };
  const project = (
    await sql<{
      name: string;
      currency: string;
    }>`select name, currency from projects where id = ${pools.project}`.execute(storage.db)
  ).rows[0];
  const orderIds = (
    await sql<{ id: number }>`select id from orders where project_id = ${pools.project} order by id limit 5000`.execute(
      storage.db,
    )
  ).rows.map((r) => Number(r.id));
  const maxOrder = (
    await sql<{ n: number }>`select max(id) as n from orders where project_id = ${pools.project}`.execute(storage.db)
  ).rows[0].n;
  const stock = (
    await sql<{ id: number; inventory_type: string }>`select id, inventory_type from products
      where project_id = ${pools.project} and show_in_store = 1 order by id limit 5000`.execute(storage.db)
  ).rows.map((r) => ({ id: Number(r.id), advanced: r.inventory_type === 'advanced' }));
  let firstOrderId = Number(maxOrder) + 1_000_000;

  const rows: LiveRow[] = [];
  for (const l of LOADS) {
    // Reads alone first, warmed: the baseline of this load, measured right before it.
    if (ctx.warmup > 0) await reads(ctx.warmup);
    const { result: alone, perThousand: cpuAlone } = await measured(ctx.seconds);
    const job: WriterJob = {
      ...l.job,
      seconds: ctx.seconds,
      base: ctx.base,
      key: pools.key,
      orderIds,
      stock,
      serverRoot: serverRootOf(),
      url: ctx.url,
      project: { id: pools.project, ...project },
      firstOrderId,
      maxProductId: pools.maxProductId,
    };
    firstOrderId += 1_000_000;
    const stopRss = watchRss(ctx.serverPid);
    const writer = writeAtRate(job);
    const { result: beside, perThousand: cpuBeside } = await measured(ctx.seconds);
    const written = await writer;
    const peak = stopRss();
    if (written.error) ctx.log(`  live: ${l.name}: a write failed: ${written.error}`);
    const times = written.times.sort((a, b) => a - b);
    const q = (f: number) =>
      times.length ? Math.round(times[Math.min(times.length - 1, Math.floor(f * times.length))]) : 0;
    const row: LiveRow = {
      backend: ctx.backend,
      size: ctx.size,
      load: l.name,
      alone,
      reads: beside,
      ratio: Math.round((beside.rps / alone.rps) * 1000) / 1000,
      writes: { done: times.length, failed: written.failed, p50: q(0.5), p99: q(0.99) },
      cpu_per_1000: { alone: cpuAlone, beside: cpuBeside },
      server_rss_mib: Math.round(peak / 2 ** 20),
    };
    rows.push(row);
    ctx.log(
      `  live: ${l.name}: reads ${Math.round(beside.rps)} req/s (alone ${Math.round(alone.rps)}, ${row.ratio.toFixed(2)}×), read p99 ${beside.p99} ms (alone ${alone.p99}), writes ${row.writes.done} p99 ${row.writes.p99} ms, failed ${row.writes.failed}, unexpected reads ${beside.unexpected}, server CPU per 1,000 reads ${cpuAlone} → ${cpuBeside} ms, RSS ${row.server_rss_mib} MiB`,
    );
  }
  return rows;
}

function writeAtRate(job: WriterJob): Promise<WriterReport> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(ROOT, 'dist', 'bench', 'live-writer.js'), { workerData: job });
    worker.once('message', (m: WriterReport) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the writer thread exited with ${code}`));
    });
  });
}

/** The live-shop rows as a Markdown table. */
export function liveTable(rows: LiveRow[]): string {
  const out = [
    '| backend | products | writes beside the reads | reads/s alone | reads/s | ratio | read p99 alone ms | read p99 ms | writes | write p99 ms | failed | CPU ms / 1,000 reads alone → beside | server RSS MiB |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows)
    out.push(
      `| ${r.backend} | ${r.size} | ${r.load} | ${Math.round(r.alone.rps)} | ${Math.round(r.reads.rps)} | ${r.ratio.toFixed(2)}× | ${r.alone.p99} | ${r.reads.p99} | ${r.writes.done} | ${r.writes.p99} | ${r.writes.failed + r.reads.unexpected} | ${r.cpu_per_1000?.alone ?? '–'} → ${r.cpu_per_1000?.beside ?? '–'} | ${r.server_rss_mib ?? '–'} |`,
    );
  return out.join('\n');
}
