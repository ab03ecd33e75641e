import { createWriteStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { importJob } from './bulk-imports.js';
import { cpuMs, rss, runCli, watchRss } from './processes.js';
import type { CsvRow } from './report.js';

// The CSV export and import (issue 27), `--exports`: GET /exports/products.csv of the whole
// catalog (`fetch_hidden=true`), written to a file as fast as it comes: its rows/s, the
// server's CPU time per 1,000 rows (what the export costs, whatever else the machine runs),
// its RSS before and its peak meanwhile (flat: the same at every size); then that file
// imported again into the same project, every product replaced, as a job over HTTP
// (POST /imports/, text/csv) and by `storefront import --project` (its own process).

export interface CsvContext {
  backend: 'sqlite' | 'postgres';
  products: number;
  work: string;
  /** --database <url> */
  db: string[];
  project: string;
  key: string;
  log(line: string): void;
}

export async function csvRoundTrip(ctx: CsvContext, server: { url: string; pid: number }): Promise<CsvRow[]> {
  const file = join(ctx.work, 'products.csv');
  const base = `${server.url}/v2/projects/${ctx.project}`;
  const row = (way: CsvRow['way'], seconds: number, peak: number, extra: Partial<CsvRow> = {}): CsvRow => {
    const r: CsvRow = {
      backend: ctx.backend,
      products: ctx.products,
      way,
      seconds: Math.round(seconds * 100) / 100,
      rows_per_s: Math.round(ctx.products / seconds),
      peak_rss_mib: Math.round(peak / 2 ** 20),
      ...extra,
    };
    ctx.log(
      `  csv ${way}: ${r.products} rows in ${r.seconds} s, ${r.rows_per_s} rows/s, peak RSS ${r.peak_rss_mib} MiB${r.rss_before_mib === undefined ? '' : ` (before ${r.rss_before_mib})`}${r.cpu_ms_per_1000 === undefined ? '' : `, server CPU ${r.cpu_ms_per_1000} ms per 1,000 rows`}${r.status ? `, ${r.status}` : ''}`,
    );
    return r;
  };
  try {
    const rows: CsvRow[] = [];
    ctx.log(`  GET /exports/products.csv of ${ctx.products} products…`);
    const before = rss(server.pid);
    const cpu = cpuMs(server.pid);
    const peak = watchRss(server.pid);
    const started = performance.now();
    const answer = await fetch(`${base}/exports/products.csv?fetch_hidden=true`, {
      headers: { authorization: `Bearer ${ctx.key}` },
    });
    if (answer.status !== 200) throw new Error(`the export answered ${answer.status}: ${await answer.text()}`);
    let records = 0;
    const counted = Readable.fromWeb(answer.body as never).on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) records++;
    });
    await pipeline(counted, createWriteStream(file));
    const seconds = (performance.now() - started) / 1000;
    // The generated catalog has no line break inside a cell: a line is a record.
    if (records !== ctx.products + 1) throw new Error(`the export wrote ${records - 1} rows of ${ctx.products}`);
    rows.push(
      row('export', seconds, peak(), {
        rss_before_mib: Math.round(before / 2 ** 20),
        cpu_ms_per_1000: Math.round(((cpuMs(server.pid) - cpu) / ctx.products) * 1000 * 10) / 10,
      }),
    );

    ctx.log(`  POST /imports/ of that file (text/csv) into ${ctx.project}…`);
    const importPeak = watchRss(server.pid);
    const importStart = performance.now();
    const status = await importJob(`${base}/imports/`, ctx.key, file, 'text/csv');
    rows.push(row('import http', (performance.now() - importStart) / 1000, importPeak(), { status }));

    ctx.log(`  storefront import of that file --project ${ctx.project}…`);
    const cli = await runCli(['import', file, '--project', ctx.project, ...ctx.db]);
    rows.push(row('import cli', cli.seconds, cli.peakRss));
    return rows;
  } finally {
    rmSync(file, { force: true });
  }
}

/** The rows as a Markdown table. */
export function csvTable(rows: CsvRow[]): string {
  const lines = [
    '| backend | products | step | s | rows/s | peak RSS MiB | RSS before MiB | server CPU ms / 1,000 rows | job |',
    '|---|---:|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.backend} | ${r.products} | ${r.way} | ${r.seconds} | ${r.rows_per_s} | ${r.peak_rss_mib} | ${r.rss_before_mib ?? ''} | ${r.cpu_ms_per_1000 ?? ''} | ${r.status ?? ''} |`,
    );
  return lines.join('\n');
}
