import type { LiveRow } from './live-shop.js';
import type { LoadResult } from './load.js';

/** cold: right after a write, inputs never asked before; warm: the same inputs again */
export type Phase = 'cold' | 'warm';

export interface QueryRow {
  backend: string;
  size: number;
  query: string;
  phase: Phase;
  /** mean body bytes of the checked answers (the bare server answers this many) */
  bytes?: number;
  api: LoadResult;
  baseline: LoadResult;
  /** API req/s over the bare server's req/s */
  ratio?: number;
  /** every checked answer carried the exact total (undefined: the case has no total) */
  totals_ok?: boolean;
  /** a load that ran at the same time (the heavy searches beside single products) */
  side?: LoadResult & { name: string };
  server_rss_mib?: number;
}

export interface ImportRow {
  backend: string;
  products: number;
  seconds: number;
  peak_rss_mib: number;
  /** the import ran while reads were measured */
  while_serving?: boolean;
}

/** A bulk load (bulk-imports.ts): by the CLI, or uploaded to the server beside reads. */
export interface BulkImportRow {
  backend: string;
  products: number;
  way: 'cli' | 'http';
  seconds: number;
  /** the CLI's peak RSS, or the server's while the upload was imported */
  peak_rss_mib: number;
  /** http: how the job ended (a job cut by the serving statement timeout fails) */
  status?: string;
  /** http: reads of another project beside the import */
  reads?: LoadResult;
}

/** A step of the CSV round trip (csv-exports.ts): the export, its import over HTTP and by the CLI. */
export interface CsvRow {
  backend: string;
  products: number;
  way: 'export' | 'import http' | 'import cli';
  seconds: number;
  rows_per_s: number;
  /** the server's peak RSS during the step (the CLI's own for `import cli`) */
  peak_rss_mib: number;
  /** export: the server's RSS right before it */
  rss_before_mib?: number;
  /** export: the server's CPU time (all its threads) per 1,000 rows */
  cpu_ms_per_1000?: number;
  /** import http: how the job ended */
  status?: string;
}

/** `storefront generate` of a size: products, with size/10 orders and size/100 users. */
export interface GenerateRow {
  backend: string;
  products: number;
  seconds: number;
  peak_rss_mib: number;
}

/** The same reads of a project right after its import and after a manual ANALYZE, one at a time. */
export interface PlanCheck {
  backend: string;
  products: number;
  paths: string[];
  /** the first read of each path, caches cold (older runs: absent) */
  first_ms?: number[];
  /** again, the database's caches warm, every cached answer stale */
  right_after_ms: number[];
  after_analyze_ms: number[];
}

export interface Run {
  started_at: string;
  finished_at?: string;
  machine: Record<string, unknown>;
  options: Record<string, unknown>;
  results: QueryRow[];
  imports: ImportRow[];
  generates?: GenerateRow[];
  plan_checks?: PlanCheck[];
  /** the live-shop cases (live-shop.ts) */
  live?: LiveRow[];
  /** the bulk loads (bulk-imports.ts) */
  bulk_imports?: BulkImportRow[];
  csv?: CsvRow[];
}

/** The run as Markdown tables (docs/PERFORMANCE.md takes them as they are). */
export function printRun(run: Run): void {
  const out: string[] = [];
  out.push(
    '| backend | products | case | phase | req/s | bare req/s | ratio | p50 ms | p99 ms | bare p99 ms | unexpected | exact totals |',
  );
  out.push('|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of run.results) {
    const totals = r.totals_ok === undefined ? '' : r.totals_ok ? 'yes' : 'WRONG';
    out.push(
      `| ${r.backend} | ${r.size} | ${r.query} | ${r.phase} | ${Math.round(r.api.rps)} | ${Math.round(r.baseline.rps)} | ${r.ratio!.toFixed(2)}× | ${r.api.p50} | ${r.api.p99} | ${r.baseline.p99} | ${r.api.unexpected} | ${totals} |`,
    );
    if (r.side)
      out.push(
        `| ${r.backend} | ${r.size} | ↳ beside it: ${r.side.name} | ${r.phase} | ${Math.round(r.side.rps)} | | | ${r.side.p50} | ${r.side.p99} | | ${r.side.unexpected} | |`,
      );
  }
  out.push('');
  out.push('| backend | products | server peak RSS MiB |');
  out.push('|---|---:|---:|');
  const seen = new Set<string>();
  for (const r of run.results) {
    const key = `${r.backend} ${r.size}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(`| ${r.backend} | ${r.size} | ${r.server_rss_mib ?? ''} |`);
  }
  if (run.generates?.length) {
    out.push('');
    out.push('| backend | `storefront generate` products (+ orders, users) | seconds | peak RSS MiB |');
    out.push('|---|---:|---:|---:|');
    for (const g of run.generates) out.push(`| ${g.backend} | ${g.products} | ${g.seconds} | ${g.peak_rss_mib} |`);
  }
  if (run.imports.length) {
    out.push('');
    out.push(
      '| backend | NDJSON import of products into a new project | while serving reads | seconds | peak RSS MiB |',
    );
    out.push('|---|---:|---|---:|---:|');
    for (const i of run.imports)
      out.push(
        `| ${i.backend} | ${i.products} | ${i.while_serving ? 'yes' : 'no'} | ${i.seconds} | ${i.peak_rss_mib} |`,
      );
  }
  for (const c of run.plan_checks ?? []) {
    out.push('');
    out.push(
      `| ${c.backend} ${c.products}: read of the imported project | first read, ms | right after the import, ms | after ANALYZE, ms |`,
    );
    out.push('|---|---:|---:|---:|');
    c.paths.forEach((p, i) =>
      out.push(`| \`${p}\` | ${c.first_ms?.[i] ?? ''} | ${c.right_after_ms[i]} | ${c.after_analyze_ms[i]} |`),
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

const KEYED = ['fetch_hidden=true, key', 'orders, two filters, key'];

/** The targets of issue 14 (docs/PERFORMANCE.md), judged on the largest size of each backend. */
export function printTargets(run: Run): void {
  const out: string[] = ['| backend | target | measured | met |', '|---|---|---|---|'];
  const line = (backend: string, target: string, measured: string, met: boolean | undefined) =>
    out.push(`| ${backend} | ${target} | ${measured} | ${met === undefined ? 'n/a' : met ? 'yes' : 'NO'} |`);
  for (const backend of [...new Set(run.results.map((r) => r.backend))]) {
    const rows = run.results.filter((r) => r.backend === backend);
    const big = Math.max(...rows.map((r) => r.size));
    const at = rows.filter((r) => r.size === big);
    const ratio = (query: string, min: number) => {
      for (const r of at.filter((x) => x.query === query && x.phase === 'warm'))
        line(backend, `${query} ≥ ${min}× bare at ${big} (warm)`, `${r.ratio!.toFixed(2)}×`, r.ratio! >= min);
    };
    ratio('product by handle', 0.5);
    ratio('list page 1 (same request)', 0.4);
    for (const query of KEYED) ratio(query, 0.35);
    for (const r of at) {
      if (r.query === 'revalidate (304)') continue;
      const limit = r.query.startsWith('search') ? 50 : 25;
      line(backend, `${r.query} (${r.phase}): p99 ≤ ${limit} ms`, `${r.api.p99} ms`, r.api.p99 <= limit);
      if (r.query.startsWith('reads during an import'))
        line(backend, `${r.query}: no failed request`, String(r.api.unexpected), r.api.unexpected === 0);
      if (r.totals_ok !== undefined) line(backend, `${r.query} (${r.phase}): exact totals`, '', r.totals_ok);
    }
    const rss = at[0]?.server_rss_mib;
    if (rss !== undefined) line(backend, `server RSS ≤ 300 MiB under load at ${big}`, `${rss} MiB`, rss <= 300);
  }
  // Process start and migrations dominate small runs: the time limits are judged from 100k on.
  for (const i of run.imports) {
    const limit = i.backend === 'sqlite' ? 60 : 90;
    const scaled = (limit * i.products) / 1_000_000;
    const what = `import of ${i.products} products${i.while_serving ? ' while serving reads' : ''}`;
    line(
      i.backend,
      `${what} ≤ ${round1(scaled)} s (${limit} s a million)`,
      `${i.seconds} s`,
      i.products >= 100_000 && !i.while_serving ? i.seconds <= scaled : undefined,
    );
    line(i.backend, `${what}: RSS ≤ 400 MiB`, `${i.peak_rss_mib} MiB`, i.peak_rss_mib <= 400);
  }
  for (const g of run.generates ?? []) {
    const scaled = (60 * g.products) / 1_000_000;
    line(
      g.backend,
      `generate ${g.products} products ≤ ${round1(scaled)} s (60 s a million)`,
      `${g.seconds} s`,
      g.products >= 100_000 ? g.seconds <= scaled : undefined,
    );
  }
  // "As fast as after a manual ANALYZE": within twice its time, or 5 ms of it (single timings,
  // both with the database's caches warm: afterImportPlans).
  for (const c of run.plan_checks ?? []) {
    const slow = c.paths.filter((_, i) => {
      const [after, analyzed] = [c.right_after_ms[i], c.after_analyze_ms[i]];
      return after > Math.max(2 * analyzed, analyzed + 5);
    });
    line(
      c.backend,
      `reads right after an import of ${c.products} as fast as after ANALYZE`,
      slow.length ? `slower: ${slow.join(' ')}` : 'all within 2× or 5 ms',
      c.products >= 100_000 ? slow.length === 0 : undefined,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
