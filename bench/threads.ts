import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { writeNdjson } from './ndjson.js';
import { CLI, UNCACHED_ENV, generateWithKey, serveApi } from './processes.js';

// `npm run bench:threads`: what SQLite's worker threads (SQLITE_READERS) change, measured
// on one generated catalog with the threads off (0) and on, back to back:
// 1. /healthz and single products (random ids) beside connections running worst-case
//    searches (1–2 letters, deep pages, varied orders) with the caches off, so that every
//    search runs its queries;
// 2. public reads (random products and list pages) and keyed lists while `storefront import`
//    writes a large NDJSON file into the same SQLite file from another process.

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    import: { type: 'string', default: '100000' },
    readers: { type: 'string', default: '0,2' },
    duration: { type: 'string', default: '10' },
    heavy: { type: 'string', default: '4' },
    seed: { type: 'string', default: '14' },
  },
});

const PROJECT = 'bench';
const size = Number(values.size);
const seconds = Number(values.duration);

// A small seeded generator, so that two runs ask the same requests.
let state = Number(values.seed) >>> 0 || 1;
function random(): number {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
}
const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];

function heavySearches(n: number): { path: string }[] {
  const letters = 'abcdefghijklmnoprstuvy';
  const orders = ['name_asc', 'price_desc', 'date_asc', 'price_asc,name_asc', 'custom_desc'];
  return Array.from({ length: n }, () => {
    const term = random() < 0.5 ? pick([...letters]) : pick([...letters]) + pick([...letters]);
    const page = 1 + Math.floor(random() * 500);
    return { path: `/v2/projects/${PROJECT}/products/?search=${term}&perpage=20&page=${page}&order=${pick(orders)}` };
  });
}

function singleProducts(n: number): { path: string }[] {
  return Array.from({ length: n }, () => ({
    path: `/v2/projects/${PROJECT}/products/${1 + Math.floor(random() * size)}`,
  }));
}

interface Figures {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
}

function run(
  url: string,
  connections: number,
  requests: { path: string; headers?: Record<string, string> }[],
  duration: number,
): { done: Promise<Figures>; stop(): void } {
  let instance: autocannon.Instance | undefined;
  const done = new Promise<Figures>((resolve, reject) => {
    instance = autocannon({ url, connections, pipelining: 1, duration, requests }, (err, r) =>
      err
        ? reject(err instanceof Error ? err : new Error(String(err)))
        : resolve({
            requests: r.requests.total,
            p50: r.latency.p50,
            p99: r.latency.p99,
            max: r.latency.max,
            non2xx: r.non2xx,
            errors: r.errors + r.timeouts,
          }),
    );
  });
  return { done, stop: () => instance?.stop() };
}

const show = (label: string, f: Figures) =>
  console.log(
    `  ${label.padEnd(34)} ${String(f.requests).padStart(7)} req  p50 ${f.p50} ms  p99 ${f.p99} ms  max ${f.max} ms  non-2xx ${f.non2xx}  errors ${f.errors}`,
  );

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-threads-'));
  const path = join(work, 'bench.db');
  const url = `sqlite:${path}`;
  try {
    console.log(`generating ${size} products (seed ${values.seed})…`);
    const key = await generateWithKey(PROJECT, url, { products: size, orders: 1000, users: 100 });
    const auth = { authorization: `Bearer ${key}` };
    const file = join(work, 'import.ndjson');
    if (Number(values.import) > 0) await writeNdjson(file, 'imported', Number(values.import));

    // Every setting starts from the same file (the import adds a project).
    copyFileSync(path, `${path}.pristine`);
    for (const readers of values.readers.split(',')) {
      for (const suffix of ['-wal', '-shm']) rmSync(path + suffix, { force: true });
      copyFileSync(`${path}.pristine`, path);
      const server = await serveApi(['--database', url], { ...UNCACHED_ENV, SQLITE_READERS: readers }, { cli: CLI });
      try {
        console.log(`SQLITE_READERS=${readers} (caches off)`);
        // Alone first, then beside the heavy searches.
        show('single product, alone', await run(server.url, 1, singleProducts(500), seconds).done);
        const heavy = run(server.url, Number(values.heavy), heavySearches(400), seconds + 1);
        await new Promise((r) => setTimeout(r, 500));
        const [health, product] = await Promise.all([
          run(server.url, 1, [{ path: '/healthz' }], seconds).done,
          run(server.url, 1, singleProducts(500), seconds).done,
        ]);
        show('/healthz beside heavy searches', health);
        show('single product beside heavy searches', product);
        show(`heavy searches (${values.heavy} connections)`, await heavy.done);

        if (Number(values.import) > 0) {
          const started = Date.now();
          const child = spawn(process.execPath, [CLI, 'import', file, '--database', url], { stdio: 'ignore' });
          const exited = new Promise<number | null>((r) => child.on('exit', r));
          const lists = Array.from({ length: 50 }, () => ({
            path: `/v2/projects/${PROJECT}/products/?page=${1 + Math.floor(random() * 100)}&order=name_asc`,
          }));
          const publicReads = run(server.url, 2, [...singleProducts(200), ...lists], 3600);
          const keyed = run(
            server.url,
            1,
            [{ path: `/v2/projects/${PROJECT}/products/?fetch_hidden=true&page=2`, headers: auth }],
            3600,
          );
          const code = await exited;
          publicReads.stop();
          keyed.stop();
          console.log(
            `  import of ${values.import} products: exit ${code}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
          );
          show('public reads during the import', await publicReads.done);
          show('keyed list during the import', await keyed.done);
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
