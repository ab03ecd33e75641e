import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import type { TestContext } from 'node:test';

// The real CLI (`node bin/storefront.js …`) as tests run it: one-shot commands, and
// `serve` processes that are always killed when the test ends.

const BIN = new URL('../../../bin/storefront.js', import.meta.url).pathname;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** every exit of the process, with its code or signal */
  exits: { code: number | null; signal: NodeJS.Signals | null }[];
  /** the exit code of the process, once it has exited */
  exited: Promise<number | null>;
  /** what the process wrote: its last 64 KiB, or all of it with `fullLog` */
  output(): string;
}

export interface ServeOptions {
  /** keep all the output (to read every log line), not only its tail */
  fullLog?: boolean;
}

/** Starts `storefront serve` on a free port and waits until it answers (at most 60 s: a loaded machine took over 20 s to start one). */
export async function startServe(
  t: TestContext,
  env: NodeJS.ProcessEnv,
  options: ServeOptions = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], {
    // Rate limits have tests of their own; these servers are hammered on purpose.
    env: { ...process.env, STOREFRONT_DEMO: '0', LOG_LEVEL: 'warn', RATE_LIMIT: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exits: ServerProcess['exits'] = [];
  child.on('exit', (code, signal) => exits.push({ code, signal }));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await once(child, 'exit').catch(() => {});
      clearTimeout(timer);
    }
  });
  // Keep the tail of the output only: a server under load logs every failed request.
  let log = '';
  const keep = options.fullLog
    ? (d: Buffer) => (log += d.toString())
    : (d: Buffer) => (log = (log + d.toString()).slice(-64 * 1024));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode} before listening:\n${log}`);
    try {
      await fetch(`${url}/v2/projects/-/plans/`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`serve did not answer within 60 s:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { child, url, exits, exited, output: () => log };
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
