import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Child processes of a run: the API server, the baseline server, CLI commands. Each runs on
// its own so that its memory can be read from /proc and the load generator (this process)
// does not share its event loop.

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'bin', 'storefront.js');

/**
 * The checkout whose CLI and server are measured: this one, or another (`--server-root`, to
 * measure an older build with this bench, old against new in one session).
 */
let serverRoot = ROOT;
export function useServerRoot(root: string): void {
  serverRoot = root;
}
export function serverRootOf(): string {
  return serverRoot;
}
export function cliOf(): string {
  return join(serverRoot, 'bin', 'storefront.js');
}

// Children still running when the bench ends (an error, Ctrl-C) are stopped with it.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Resident set size of a process in bytes (Linux), or 0 when unknown. */
export function rss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU time a process has used so far, user and system, in milliseconds (Linux), or 0 when unknown. */
export function cpuMs(pid: number): number {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the command's closing parenthesis; clock
    // ticks of 10 ms (USER_HZ is 100 on Linux).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every 100 ms until stopped; returns the highest seen. */
export function watchRss(pid: number): () => number {
  let peak = rss(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 100);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rss(pid));
  };
}

export interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A port free at the moment of asking. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** Starts a node script serving on `port` and waits until `probe` answers. */
export async function startServer(
  args: string[],
  port: number,
  probe: string,
  env: Record<string, string> = {},
): Promise<Server> {
  // The server's output is kept (its last 16 KiB, stdout and stderr together): when it dies,
  // during start-up or mid-run, what it said is printed, instead of only a client's
  // "fetch failed" (bench --smoke once failed so, and nobody could tell why).
  const child = track(
    spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-16_384);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited = false;
  child.on('exit', (code, signal) => {
    exited = true;
    if (stopping.has(child)) return;
    process.stderr.write(
      `bench: the server (${args.join(' ')}) died: ${signal ?? `exit ${code}`}; its last output:\n${output.trim()}\n`,
    );
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (exited) throw new Error(`${args.join(' ')} exited: ${output.trim().split('\n').pop()}`);
    try {
      await fetch(url + probe);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, pid: child.pid!, stop: () => stop(child) };
}

/**
 * `storefront serve` of the measured checkout (`cli`: another) on a free port, once `probe`
 * answers (a path every checkout measured serves).
 */
export async function serveApi(
  db: string[],
  env: Record<string, string>,
  { probe = '/healthz', cli = cliOf() }: { probe?: string; cli?: string } = {},
): Promise<Server> {
  const port = await freePort();
  return startServer([cli, 'serve', '--port', String(port), ...db], port, probe, env);
}

/** Servers being stopped on purpose: their exit is no news. */
const stopping = new WeakSet<ChildProcess>();

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  stopping.add(child);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Runs the CLI to completion; rejects with its stderr when it fails. Reports its peak RSS. */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; seconds: number; peakRss: number }> {
  const started = Date.now();
  const child = track(
    spawn(process.execPath, [cliOf(), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  const stopWatch = watchRss(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  const peakRss = stopWatch();
  if (code !== 0) throw new Error(`storefront ${args[0]} failed (${code}): ${stderr.trim()}`);
  return { stdout, seconds: (Date.now() - started) / 1000, peakRss };
}

/** `storefront generate` of a catalog on `url`, then a key of its project: the key. */
export async function generateWithKey(
  project: string,
  url: string,
  counts: { products: number; orders: number; users: number },
): Promise<string> {
  const db = ['--database', url];
  const sizes = Object.entries(counts).flatMap(([what, n]) => [`--${what}`, String(n)]);
  await runCli(['generate', project, ...sizes, ...db]);
  return (await runCli(['key', 'create', project, '--label', 'bench', ...db])).stdout.trim();
}

/** A quiet server with no rate limit and no caches: every request reads the database. */
export const UNCACHED_ENV: Readonly<Record<string, string>> = {
  LOG_LEVEL: 'warn',
  STOREFRONT_DEMO: '0',
  RATE_LIMIT: 'off',
  STOREFRONT_ANSWER_CACHE: '0',
  STOREFRONT_COUNT_CACHE: '0',
};
