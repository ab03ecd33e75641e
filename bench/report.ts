import type { LoadResult } from './load.js';

export interface QueryRow {
  backend: string;
  size: number;
  query: string;
  /** set when the endpoint is not there (e.g. not built yet) */
  missing?: string;
  bytes?: number;
  first_ms?: number;
  api?: LoadResult;
  baseline?: LoadResult;
  /** API req/s over baseline req/s */
  ratio?: number;
  total?: number;
  total_ok?: boolean;
  server_rss_mib?: number;
}

export interface ImportRow {
  backend: string;
  products: number;
  seconds: number;
  peak_rss_mib: number;
}

export interface Run {
  started_at: string;
  finished_at?: string;
  machine: Record<string, unknown>;
  options: Record<string, unknown>;
  results: QueryRow[];
  imports: ImportRow[];
}

/** The run as Markdown tables (docs/PERFORMANCE.md takes them as they are). */
export function printRun(run: Run): void {
  const out: string[] = [];
  out.push(
    '| backend | products | query | req/s | baseline req/s | ratio | p50 ms | p99 ms | base p99 ms | first ms | total | p50 growth |',
  );
  out.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const smallest = new Map<string, number>();
  for (const r of run.results) {
    const key = `${r.backend}\u0000${r.query}`;
    if (r.api && !smallest.has(key)) smallest.set(key, r.api.p50);
  }
  for (const r of run.results) {
    if (!r.api || !r.baseline) {
      out.push(`| ${r.backend} | ${r.size} | ${r.query} | missing (${r.missing}) | | | | | | | | |`);
      continue;
    }
    const first = smallest.get(`${r.backend}\u0000${r.query}`)!;
    const growth = first > 0 ? (r.api.p50 / first).toFixed(2) : r.api.p50 === 0 ? '1.00' : '–';
    const total = r.total === undefined ? '' : `${r.total}${r.total_ok ? '' : ' (wrong!)'}`;
    out.push(
      `| ${r.backend} | ${r.size} | ${r.query} | ${Math.round(r.api.rps)} | ${Math.round(r.baseline.rps)} | ${Math.round(r.ratio! * 100)}% | ${r.api.p50} | ${r.api.p99} | ${r.baseline.p99} | ${r.first_ms} | ${total} | ${growth}× |`,
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
  if (run.imports.length) {
    out.push('');
    out.push('| backend | NDJSON import of products | seconds | peak RSS MiB |');
    out.push('|---|---:|---:|---:|');
    for (const i of run.imports) out.push(`| ${i.backend} | ${i.products} | ${i.seconds} | ${i.peak_rss_mib} |`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

/** The targets of docs/PERFORMANCE.md, judged on the largest size of each backend. */
export function printTargets(run: Run): void {
  const out: string[] = ['| backend | target | measured | met |', '|---|---|---|---|'];
  const line = (backend: string, target: string, measured: string, met: boolean | undefined) =>
    out.push(`| ${backend} | ${target} | ${measured} | ${met === undefined ? 'n/a' : met ? 'yes' : 'NO'} |`);
  for (const backend of [...new Set(run.results.map((r) => r.backend))]) {
    const rows = run.results.filter((r) => r.backend === backend && r.api);
    const sizes = [...new Set(rows.map((r) => r.size))].sort((a, b) => a - b);
    const big = sizes[sizes.length - 1];
    const at = (size: number, query: string) => rows.find((r) => r.size === size && r.query === query);
    const product = at(big, 'product by handle');
    const list = at(big, 'list page 1');
    if (product)
      line(
        backend,
        `product by handle ≥ 50 % of baseline req/s at ${big}`,
        `${Math.round(product.ratio! * 100)} %`,
        product.ratio! >= 0.5,
      );
    if (list)
      line(
        backend,
        `list page 1 ≥ 35 % of baseline req/s at ${big}`,
        `${Math.round(list.ratio! * 100)} %`,
        list.ratio! >= 0.35,
      );
    for (const r of rows.filter((x) => x.size === big)) {
      const limit = r.query.startsWith('search') ? 50 : 25;
      line(backend, `${r.query}: p99 ≤ ${limit} ms`, `${r.api!.p99} ms`, r.api!.p99 <= limit);
      const small = at(sizes[0], r.query);
      if (small && sizes.length > 1) {
        // autocannon reports whole milliseconds: 1 ms against 0 ms is within the resolution.
        const met = r.api!.p50 <= Math.max(2 * small.api!.p50, 1);
        line(
          backend,
          `${r.query}: p50 at ${big} ≤ 2 × p50 at ${sizes[0]}`,
          `${r.api!.p50} ms vs ${small.api!.p50} ms`,
          met,
        );
      }
      if (r.total !== undefined) line(backend, `${r.query}: exact total`, String(r.total), r.total_ok);
    }
    const rss = rows.find((r) => r.size === big)?.server_rss_mib;
    if (rss !== undefined) line(backend, `server RSS ≤ 300 MiB under load at ${big}`, `${rss} MiB`, rss <= 300);
  }
  for (const i of run.imports) {
    line(i.backend, `NDJSON import of ${i.products} products ≤ 90 s`, `${i.seconds} s`, i.seconds <= 90);
    line(i.backend, `import RSS ≤ 400 MiB`, `${i.peak_rss_mib} MiB`, i.peak_rss_mib <= 400);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}
