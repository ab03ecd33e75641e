import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { load } from './load.js';
import { CLI, runCli, serveApi } from './processes.js';

// `npm run bench:compression`: the rate of a stored (answer-cache) page of 100 products sent
// as it is, gzip-encoded and brotli-encoded, from one `storefront serve` process on SQLite.
// CONTRACT 8 wants the encoded bytes of a stored answer made once, so a compressed hit must
// keep at least 0.8x the rate of an uncompressed one; the run fails below that. Kept apart
// from main.ts so the query bench stays about queries.

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    products: { type: 'string', default: '2000' },
    smoke: { type: 'boolean', default: false },
  },
});
const seconds = values.smoke ? 0.5 : Number(values.duration);
const connections = values.smoke ? 4 : Number(values.connections);
const MIN_RATIO = 0.8;

const work = mkdtempSync(join(tmpdir(), 'storefront-bench-compression-'));
const db = ['--database', `sqlite:${join(work, 'bench.db')}`];
await runCli(['generate', 'bench', '--products', values.smoke ? '200' : values.products, ...db]);
const server = await serveApi(db, { LOG_LEVEL: 'warn', STOREFRONT_DEMO: '0', RATE_LIMIT: 'off' }, { cli: CLI });
let failed = false;
try {
  const url = `${server.url}/v2/projects/bench/products/?perpage=100`;
  const rows: { coding: string; bytes: number; rps: number; p99: number }[] = [];
  for (const coding of ['identity', 'gzip', 'br']) {
    const headers = { 'accept-encoding': coding };
    const first = await fetch(url, { headers });
    const bytes = (await first.arrayBuffer()).byteLength; // fetch decodes; the wire size is the header's
    const wire = Number(first.headers.get('content-length') ?? bytes);
    await load(url, { seconds: Math.min(seconds, 2), connections, headers, expect: 200 }); // warm-up
    const result = await load(url, { seconds, connections, headers, expect: 200 });
    if (result.unexpected > 0) throw new Error(`${coding}: ${result.unexpected} answers were not 200`);
    rows.push({ coding, bytes: wire, rps: Math.round(result.rps), p99: result.p99 });
  }
  const base = rows[0].rps;
  process.stdout.write('coding    wire bytes   req/s   p99 ms   vs identity\n');
  for (const row of rows) {
    const ratio = row.rps / base;
    if (ratio < MIN_RATIO) failed = true;
    process.stdout.write(
      `${row.coding.padEnd(9)} ${String(row.bytes).padStart(10)} ${String(row.rps).padStart(7)} ${String(row.p99).padStart(8)}   ${ratio.toFixed(2)}x\n`,
    );
  }
  if (failed) process.stdout.write(`a compressed stored answer fell below ${MIN_RATIO}x the identity rate\n`);
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed && !values.smoke ? 1 : 0;
