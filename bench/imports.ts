import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Storage } from '../src/db/connect.js';
import type { Case } from './cases.js';
import { type LoadResult, load } from './load.js';
import { writeNdjson } from './ndjson.js';
import { runCli } from './processes.js';
import type { Random } from './random.js';
import type { ImportRow, PlanCheck } from './report.js';

// The write side of a size (issue 14): `storefront import` of an NDJSON file of products alone,
// then the same reads right after it and after a manual ANALYZE (PostgreSQL's planner must
// not need one), then an import while the server answers reads of every case.

export interface ImportContext {
  backend: 'sqlite' | 'postgres';
  products: number;
  work: string;
  /** --database <url> */
  db: string[];
  storage: Storage;
  /** the API server's origin */
  origin: string;
  random: Random;
  connections: number;
  log(line: string): void;
}

/** The import of a new project with nothing else running: its time and peak RSS. */
export async function importAlone(ctx: ImportContext, project: string, file: string): Promise<ImportRow> {
  ctx.log(`  storefront import of ${ctx.products} products into a new project, alone…`);
  const result = await runCli(['import', file, ...ctx.db]);
  const row = importRow(ctx, result, false);
  ctx.log(`  ${result.stdout.trim()}; ${row.seconds} s, peak RSS ${row.peak_rss_mib} MiB (${project})`);
  return row;
}

/**
 * Reads of the project just imported, timed one at a time: first as they come (nothing
 * cached: the project is new), then again with the database's caches as warm as they will be
 * after ANALYZE, and then after a manual ANALYZE. Before each of the later rounds a write
 * makes every cached answer and count stale, so each read runs its queries again. The
 * second round against the third judges the planner's statistics alone (right after an
 * import the planner must already know the project's size); the first, cold, round read the
 * pages from disk, which a comparison of plans must not count.
 */
export async function afterImportPlans(ctx: ImportContext, project: string): Promise<PlanCheck> {
  const key = (await runCli(['key', 'create', project, ...ctx.db])).stdout.trim();
  const base = `${ctx.origin}/v2/projects/${project}`;
  const paths = [
    '/products/',
    '/products/?page=400',
    '/products/?category=5&page=3',
    '/products/?category=22&order=price_asc,name_desc',
    '/products/?search=lin',
    '/products/?search=wool&page=2',
    '/products/?order=custom_desc,price_asc&page=50',
  ];
  const timeAll = async () => {
    const each: number[] = [];
    for (const path of paths) {
      const started = performance.now();
      const res = await fetch(base + path);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${path} on ${project} answered ${res.status}`);
      each.push(Math.round((performance.now() - started) * 10) / 10);
    }
    return each;
  };
  // A write to the project makes every answer and count cached so far stale.
  const touch = async () => {
    const first = (await (await fetch(`${base}/products/?perpage=1`)).json()) as {
      data: { id: number; price: number }[];
    };
    const product = first.data[0];
    await fetch(`${base}/products/${product.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ price: product.price }),
    });
  };
  // One request first, so that what any first request pays (the project's first read) is not counted.
  await (await fetch(`${base}/plans/`)).arrayBuffer();
  const cold = await timeAll();
  await touch();
  const right = await timeAll();
  await sql`analyze`.execute(ctx.storage.db);
  await touch();
  const analyzed = await timeAll();
  ctx.log(
    `  right after the import (ms): first ${cold.join(', ')}; again ${right.join(', ')}; after ANALYZE: ${analyzed.join(', ')}`,
  );
  return {
    backend: ctx.backend,
    products: ctx.products,
    paths,
    first_ms: cold,
    right_after_ms: right,
    after_analyze_ms: analyzed,
  };
}

/** Reads of every case, drawn at random, for as long as an import of another project runs. */
export async function importWhileServing(
  ctx: ImportContext,
  file: string,
  base: string,
  all: Case[],
): Promise<{ reads: LoadResult; imported: ImportRow }> {
  ctx.log(`  storefront import of ${ctx.products} products into a new project while reads run…`);
  const importing = runCli(['import', file, ...ctx.db]);
  const reads = await load(base, {
    seconds: 3600,
    connections: ctx.connections,
    expect: 200,
    next: () => ctx.random.pick(all).draw(ctx.random),
    until: importing.catch(() => undefined),
  });
  const result = await importing;
  const imported = importRow(ctx, result, true);
  ctx.log(`  ${result.stdout.trim()}; ${imported.seconds} s, peak RSS ${imported.peak_rss_mib} MiB`);
  return { reads, imported };
}

/** An NDJSON file of `products` generated products (and the categories) for `project`. */
export async function importFile(ctx: ImportContext, project: string): Promise<{ path: string; remove(): void }> {
  const path = join(ctx.work, `${project}.ndjson`);
  await writeNdjson(path, project, ctx.products);
  return { path, remove: () => rmSync(path, { force: true }) };
}

function importRow(ctx: ImportContext, result: { seconds: number; peakRss: number }, whileServing: boolean): ImportRow {
  return {
    backend: ctx.backend,
    products: ctx.products,
    seconds: Math.round(result.seconds * 10) / 10,
    peak_rss_mib: Math.round(result.peakRss / 2 ** 20),
    while_serving: whileServing,
  };
}
