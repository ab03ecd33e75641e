import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { BackupError, COUNTED_TABLES, type TableCounts, discard, finish, partialName } from './backup-files.js';
import { connect, redact } from './connect.js';
import { migrateToLatest } from './migrate.js';
import { skipLostVersions } from './restore-versions.js';

// PostgreSQL's backups are pg_dump's custom format (`-Fc`): pg_dump reads the whole database
// in one REPEATABLE READ snapshot, so a write committed before it began is in the dump and no
// transaction is half in it, while the server goes on writing. The tools come from the PATH
// (PostgreSQL's client package, of the server's major version or newer).

/** Runs a PostgreSQL tool; its stdout line by line to `line`, or into `output`; rejects with its first error line. */
function runTool(
  tool: string,
  args: string[],
  line?: (text: string) => void,
  output?: NodeJS.WritableStream,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', line || output ? 'pipe' : 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    if (line) createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', line);
    if (output) child.stdout!.pipe(output);
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          e.code === 'ENOENT'
            ? `${tool} was not found on the PATH: PostgreSQL backups need PostgreSQL's client tools (e.g. apt install postgresql-client)`
            : `${tool}: ${e.message}`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const first = stderr.split('\n').find((l) => l.trim()) ?? `exited with code ${code}`;
      reject(new BackupError(`${tool}: ${first.replace(/^\S+: (error: )?/, '')}`));
    });
  });
}

export async function backupPostgres(url: string, file: string): Promise<void> {
  const partial = partialName(file);
  try {
    // Through this process, not --file: if it dies, pg_dump's next write fails and it stops,
    // instead of finishing a whole dump under the temporary name.
    const out = createWriteStream(partial);
    const written = once(out, 'finish');
    written.catch(() => {}); // awaited below, once pg_dump succeeded
    await runTool('pg_dump', ['--format=custom', `--dbname=${url}`], undefined, out);
    await written;
    finish(partial, file);
  } catch (e) {
    discard(partial);
    throw e;
  }
}

const COPY = /^COPY (?:"?\w+"?\.)?"?(\w+)"? \(.*\) FROM stdin;$/;

/**
 * Checks a dump whole: pg_restore reads its table of contents and then every data block as a
 * script (each block is checksummed and compressed, so a truncated or damaged file fails), and
 * the rows of each table are counted as they pass.
 */
export async function verifyPostgres(file: string): Promise<TableCounts> {
  let hasProjects = false;
  const rows = new Map<string, number>();
  let table: string | undefined;
  try {
    await runTool('pg_restore', ['--list', file], (l) => (hasProjects ||= / TABLE \S+ projects /.test(l)));
    await runTool('pg_restore', ['--data-only', '--file=-', file], (l) => {
      if (table === undefined) table = COPY.exec(l)?.[1];
      else if (l === '\\.') table = undefined;
      else rows.set(table, (rows.get(table) ?? 0) + 1);
    });
  } catch (e) {
    throw new BackupError(`${file} is damaged or truncated: ${(e as Error).message}`);
  }
  if (!hasProjects) throw new BackupError(`${file} is a pg_dump file, but not of a Storefront database`);
  const counts: TableCounts = {};
  for (const name of COUNTED_TABLES) counts[name] = rows.get(name) ?? 0;
  return counts;
}

/** Tables in the database's current schema, and how many projects they hold. */
export async function postgresContents(url: string): Promise<{ tables: string[]; projects: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'select tablename as name from pg_tables where schemaname = current_schema() order by 1',
    );
    const tables = rows.map((r) => r.name);
    const projects = tables.includes('projects')
      ? Number((await client.query<{ n: string }>('select count(*) as n from projects')).rows[0].n)
      : 0;
    return { tables, projects };
  } finally {
    await client.end();
  }
}

/**
 * Fills the database of `url` from a dump: the tables of its current schema are dropped (the
 * caller checked that they are empty, or was told --force), pg_restore loads the dump in one
 * transaction, and the schema is upgraded and the versions moved past the lost ones.
 */
export async function restorePostgres(file: string, url: string, tables: string[]): Promise<void> {
  if (tables.length) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`drop table if exists ${tables.map((t) => pg.escapeIdentifier(t)).join(', ')} cascade`);
    } finally {
      await client.end();
    }
  }
  await runTool('pg_restore', [
    ...['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction'],
    `--dbname=${url}`,
    file,
  ]);
  const storage = connect(url, { longRunning: true });
  try {
    await migrateToLatest(storage.db);
    await skipLostVersions(storage.db);
  } catch (e) {
    throw new BackupError(`restored into ${redact(url)}, but could not finish: ${(e as Error).message}`);
  } finally {
    await storage.close();
  }
}
