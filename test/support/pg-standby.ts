import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

// A private PostgreSQL primary and a streaming standby on free ports, for the read replica
// tests: initdb, pg_basebackup -R (which writes the standby's primary_conninfo and
// standby.signal), pg_ctl. The server binaries are looked for in PG_BIN, then PostgreSQL's
// Debian folders (/usr/lib/postgresql/<version>/bin, the newest first), then `pg_config
// --bindir`. Run as root (CI's containers), the servers run as the `postgres` user, since
// PostgreSQL refuses to run as root.

const NEEDED = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'];

/** The folder holding PostgreSQL's server binaries, or undefined when there is none. */
export function serverBinaries(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian))
    for (const v of readdirSync(debian).sort((a, b) => Number(b) - Number(a))) candidates.push(join(debian, v, 'bin'));
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // no pg_config on the PATH
  }
  return candidates.find((dir) => NEEDED.every((b) => existsSync(join(dir, b))));
}

export interface StandbyPair {
  /** postgres://…/postgres of each server */
  primaryUrl: string;
  standbyUrl: string;
  /** the standby's log (every statement that would change data is logged there: log_statement=mod) */
  standbyLog(): string;
  stopStandby(mode?: 'fast' | 'immediate'): Promise<void>;
  startStandby(): Promise<void>;
  /** a statement on the standby (pg_wal_replay_pause() and such) */
  onStandby(text: string): Promise<pg.QueryResult>;
  onPrimary(text: string): Promise<pg.QueryResult>;
  close(): Promise<void>;
}

export async function startStandbyPair(bin: string): Promise<StandbyPair> {
  const dir = mkdtempSync(join(tmpdir(), 'sf-replicas-'));
  const owner = serverUser();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const run = (command: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(join(bin, command), args, {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'pipe'],
        ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
        env: serverEnv(),
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`)),
      );
    });
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const primary = join(dir, 'primary');
  const standby = join(dir, 'standby');
  const serverSettings = (port: number) =>
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'wal_level = replica',
      'max_wal_senders = 5',
      'wal_keep_size = 256MB',
      'hot_standby = on',
      'fsync = off',
      'synchronous_commit = off',
      'shared_buffers = 16MB',
      'max_connections = 60',
      "log_statement = 'mod'",
      '',
    ].join('\n');
  await run('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  appendFileSync(join(primary, 'postgresql.conf'), serverSettings(primaryPort));
  await run('pg_ctl', ['-D', primary, '-l', join(dir, 'primary.log'), '-w', '-t', '60', 'start']);
  await run('pg_basebackup', [
    ...['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standby],
    ...['-R', '-X', 'stream', '--checkpoint=fast', '--no-sync'],
  ]);
  // The standby's own port: appended last, it wins over the copied primary's.
  appendFileSync(join(standby, 'postgresql.conf'), `port = ${standbyPort}\n`);
  const startStandby = () => run('pg_ctl', ['-D', standby, '-l', join(dir, 'standby.log'), '-w', '-t', '60', 'start']);
  await startStandby();
  const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
  const once = async (port: number, text: string) => {
    const client = new pg.Client({ connectionString: url(port) });
    // A standby may end the session for a conflict with recovery (FATAL 40001): the statement
    // fails with it, and the client's 'error' event must not crash the test process.
    client.on('error', () => {});
    await client.connect();
    try {
      return await client.query(text);
    } finally {
      await client.end();
    }
  };
  return {
    primaryUrl: url(primaryPort),
    standbyUrl: url(standbyPort),
    standbyLog: () => readFileSync(join(dir, 'standby.log'), 'utf8'),
    stopStandby: (mode = 'fast') => run('pg_ctl', ['-D', standby, '-m', mode, '-w', 'stop']),
    startStandby,
    onStandby: (text) => once(standbyPort, text),
    onPrimary: (text) => once(primaryPort, text),
    async close() {
      await run('pg_ctl', ['-D', standby, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      await run('pg_ctl', ['-D', primary, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** This environment without libpq's variables, which would point the tools at another server. */
function serverEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG')));
  return { ...env, LC_ALL: 'C' };
}

/** As root, the `postgres` user the servers run as; otherwise undefined (they run as us). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no postgres user to run PostgreSQL as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `check` holds, polling every 50 ms; fails after `ms`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
