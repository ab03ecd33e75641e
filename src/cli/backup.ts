import { statSync } from 'node:fs';
import { BackupError, type TableCounts, backupDatabase, restoreBackup, verifyBackup } from '../db/backups.js';
import { redact } from '../db/connect.js';
import { CliError, databaseUrl, parse } from './context.js';

// backup, verify-backup and restore (CONTRACT 20; docs/DEPLOY.md, "Backups and restore").
// None of them migrates the database they read: a backup copies what is there.

export async function backup(args: string[]): Promise<void> {
  const verify = 'then open the copy, check its integrity and print its record counts';
  const { file, url, flag } = fileAndDatabase('backup', args, { verify });
  const { seconds } = await timed('backup', () => backupDatabase(url, file));
  process.stdout.write(`backed up ${redact(url)} to ${file}: ${mebibytes(statSync(file).size)} in ${seconds} s\n`);
  if (flag) await verifyAndPrint('backup', file);
}

export async function verifyBackupCommand(args: string[]): Promise<void> {
  const { positionals } = parse('verify-backup', args, {}, ['file']);
  await verifyAndPrint('verify-backup', positionals[0]);
}

export async function restore(args: string[]): Promise<void> {
  const force = 'replace a database that is not empty (everything in it is lost)';
  const { file, url, flag } = fileAndDatabase('restore', args, { force });
  const { value: counts, seconds } = await timed('restore', () => restoreBackup(file, url, flag));
  process.stdout.write(`restored ${file} into ${redact(url)} in ${seconds} s\n${countLines(counts)}`);
}

/** backup and restore: a file, the database (--database or DATABASE_URL) and one switch. */
function fileAndDatabase(
  command: string,
  args: string[],
  switchHelp: Record<string, string>,
): { file: string; url: string; flag: boolean } {
  const [[name, help]] = Object.entries(switchHelp);
  const { values, positionals } = parse(command, args, { [name]: { type: 'boolean', help } }, ['file']);
  return { file: positionals[0], url: databaseUrl(values), flag: values[name] === true };
}

/** The work, with its time in seconds as printed; a BackupError says which command failed. */
async function timed<T>(command: string, work: () => Promise<T>): Promise<{ value: T; seconds: string }> {
  const started = Date.now();
  const value = await failingClearly(command, work);
  return { value, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

async function verifyAndPrint(command: string, file: string): Promise<void> {
  const { format, counts } = await failingClearly(command, () => verifyBackup(file));
  const kind = format === 'sqlite' ? 'SQLite database' : 'pg_dump custom format';
  process.stdout.write(
    `${file}: complete and intact (${kind}, ${mebibytes(statSync(file).size)})\n${countLines(counts)}`,
  );
}

async function failingClearly<T>(command: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof BackupError) throw new CliError(`storefront ${command}: ${e.message}`);
    throw e;
  }
}

function countLines(counts: TableCounts): string {
  return Object.entries(counts)
    .map(([table, n]) => `${table}\t${n}\n`)
    .join('');
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
