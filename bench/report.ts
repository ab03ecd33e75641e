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
  out.push('| backend | products | query | req/s | baseline req/s | ratio | p50 ms | p99 ms | base p99 ms | first ms | total | p50 growth |');
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
