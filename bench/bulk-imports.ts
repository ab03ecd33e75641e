import { createReadStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Case } from './cases.js';
import { type ImportContext, importAlone } from './imports.js';
import { load } from './load.js';
import { writeNdjson } from './ndjson.js';
import { runCli, watchRss } from './processes.js';
import type { BulkImportRow } from './report.js';

// Bulk loads (issue 27), `--bulk-imports`: the NDJSON import of `--import` products into a new
// project by `storefront import` (its own process, nothing else running), and the same file
// uploaded to the running server (POST /imports/ into a project created empty for it, as a
// shop without a shell would) while reads of the catalog's own project run on every case
// (on 4 connections):
// the upload's time until the job has succeeded, the server's peak RSS meanwhile, and the
// reads' p99 and failures. With `--server-root` the same of another checkout (old against new).

const POLL_MS = 200;
/** connections reading beside the upload: a shop's steady traffic, not a load test (a 2-core machine shares its cores with the import) */
const READERS = 4;

export async function bulkImports(ctx: ImportContext, server: { url: string; pid: number }, base: string, all: Case[]) {
  const rows: BulkImportRow[] = [];
  const file = join(ctx.work, 'bulk.ndjson');
  const remove = () => rmSync(file, { force: true });
  try {
    await writeNdjson(file, 'bulk-cli', ctx.products);
    const cli = await importAlone(ctx, 'bulk-cli', file);
    rows.push({
      backend: cli.backend,
      products: cli.products,
      way: 'cli',
      seconds: cli.seconds,
      peak_rss_mib: cli.peak_rss_mib,
    });
    remove();
    await writeNdjson(file, 'bulk-http', ctx.products);
    rows.push(await importOverHttp(ctx, server, file, base, all));
  } finally {
    remove();
  }
  for (const r of rows)
    ctx.log(
      `  bulk ${r.way}: ${r.products} products in ${r.seconds} s, peak RSS ${r.peak_rss_mib} MiB${r.status ? `, ${r.status}` : ''}${r.reads ? `; reads beside: p99 ${r.reads.p99} ms, ${Math.round(r.reads.rps)} req/s, unexpected ${r.reads.unexpected}` : ''}`,
    );
  return rows;
}

/** Uploads the file into a project created for it and waits for the job, reads running beside. */
async function importOverHttp(
  ctx: ImportContext,
  server: { url: string; pid: number },
  file: string,
  base: string,
  all: Case[],
): Promise<BulkImportRow> {
  const project = 'bulk-http';
  await runCli(['project', 'create', project, '--name', 'Bulk upload', '--currency', 'USD', ...ctx.db]);
  const key = (await runCli(['key', 'create', project, ...ctx.db])).stdout.trim();
  const target = `${server.url}/v2/projects/${project}/imports/`;
  ctx.log(`  POST /imports/ of ${ctx.products} products into ${project} while reads of another project run…`);
  const peak = watchRss(server.pid);
  const started = performance.now();
  const importing = importJob(target, key, file, 'application/x-ndjson');
  const reads = await load(base, {
    seconds: 3600,
    connections: READERS,
    expect: 200,
    next: () => ctx.random.pick(all).draw(ctx.random),
    until: importing.catch(() => undefined),
  });
  const status = await importing;
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  return {
    backend: ctx.backend,
    products: ctx.products,
    way: 'http',
    seconds,
    peak_rss_mib: Math.round(peak() / 2 ** 20),
    status,
    reads,
  };
}

/** POSTs a file to an /imports/ URL and polls the job until it ends: its status. */
export async function importJob(target: string, key: string, file: string, type: string): Promise<string> {
  const headers = { authorization: `Bearer ${key}` };
  const answer = await fetch(target, {
    method: 'POST',
    headers: { ...headers, 'content-type': type },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  if (answer.status !== 202) throw new Error(`POST /imports/ answered ${answer.status}: ${await answer.text()}`);
  const { id } = (await answer.json()) as { id: number };
  for (;;) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const job = (await (await fetch(`${target}${id}`, { headers })).json()) as { status: string };
    if (!['queued', 'running'].includes(job.status)) return job.status;
  }
}

/** The rows as a Markdown table. */
export function bulkTable(rows: BulkImportRow[]): string {
  const lines = [
    '| backend | products | way | s | peak RSS MiB | job | reads beside: p99 ms | req/s | unexpected |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.backend} | ${r.products} | ${r.way} | ${r.seconds} | ${r.peak_rss_mib} | ${r.status ?? ''} | ${r.reads?.p99 ?? ''} | ${r.reads ? Math.round(r.reads.rps) : ''} | ${r.reads?.unexpected ?? ''} |`,
    );
  return lines.join('\n');
}
