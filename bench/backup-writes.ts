import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cliOf } from './processes.js';
import { chooseSeed, seeded } from './random.js';

// `storefront backup` of a large shop while its server takes a steady stream of product
// updates (docs/PERFORMANCE.md, "Backup and restore"): the writes' rate and times before the
// backup and while it runs, and the backup's own wall time and peak RSS. Writers are closed loops (each sends its next update when the
// last one is answered), on products drawn at random.
//
// node dist/bench/backup-writes.js <base url of the project> <key> <database url> <backup file>
//   [writers=4] [seconds before the backup=10]    (BENCH_SEED=<n> draws the same products)

interface Window {
  times: number[];
  /** answers other than 200, by status (0: no answer) */
  failed: Record<number, number>;
  started: number;
  ended: number;
}

const [base, key, database, file, writersArg = '4', beforeArg = '10'] = process.argv.slice(2);
if (!file) throw new Error('usage: backup-writes.js <project url> <key> <database url> <backup file> [writers] [s]');
const seed = chooseSeed(process.env.BENCH_SEED);
const random = seeded(seed);
const maxProduct = Number(process.env.BENCH_PRODUCTS ?? 1_000_000);
let window = fresh();
let stop = false;

function fresh(): Window {
  return { times: [], failed: {}, started: Date.now(), ended: 0 };
}

async function writer(): Promise<void> {
  while (!stop) {
    const id = random.int(1, maxProduct);
    const price = random.int(100, 99_999); // in cents
    const started = performance.now();
    const res = await fetch(`${base}/products/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ price }),
    }).catch(() => undefined);
    await res?.arrayBuffer().catch(() => {});
    // The rate limiter as shipped caps one address at 50 requests a second: past it a writer
    // waits as a well-behaved client does, so that refusals are not what is measured.
    if (res?.status === 429)
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
    if (res?.status === 200) window.times.push(performance.now() - started);
    else window.failed[res?.status ?? 0] = (window.failed[res?.status ?? 0] ?? 0) + 1;
  }
}

function summary(name: string, w: Window): string {
  const sorted = [...w.times].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0);
  const seconds = (w.ended - w.started) / 1000;
  return `${name}: ${sorted.length} writes in ${seconds.toFixed(1)} s (${(sorted.length / seconds).toFixed(1)}/s), p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms, not 200: ${JSON.stringify(w.failed)}`;
}

/** The backup under /usr/bin/time -v: its stdout and its time's report. */
function backup(): Promise<string> {
  const args = ['-v', process.execPath, cliOf(), 'backup', file, '--database', database];
  const child = spawn('/usr/bin/time', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`backup failed (${code}): ${out}`)))),
  );
}

const pick = (report: string, label: string) =>
  report
    .split('\n')
    .find((l) => l.includes(label))
    ?.trim() ?? '';

const writers = Array.from({ length: Number(writersArg) }, () => writer());
await new Promise((r) => setTimeout(r, Number(beforeArg) * 1000));
const before = window;
before.ended = Date.now();
window = fresh();
try {
  const report = await backup();
  const during = window;
  during.ended = Date.now();
  console.log(`seed ${seed}, ${writersArg} writers`);
  console.log(summary('before the backup', before));
  console.log(summary('during the backup', during));
  console.log(pick(report, 'backed up'));
  console.log(pick(report, 'Elapsed (wall clock)'));
  console.log(pick(report, 'Maximum resident set size'));
} finally {
  stop = true;
  await Promise.all(writers);
  if (process.env.BENCH_KEEP_BACKUP !== '1') rmSync(file, { force: true });
}
