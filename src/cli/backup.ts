import { statSync } from 'node:fs';
import { BackupError, type TableCounts, backupDatabase, restoreBackup, verifyBackup } from '../db/backups.js';
import { redact } from '../db/connect.js';
import { CliError, databaseUrl, parse } from './context.js';

// backup, verify-backup and restore (CONTRACT 20; docs/DEPLOY.md, "Backups and restore").
// None of them migrates the database they read: a backup copies what is there.

export async function backup(args: string[]): Promise<void> {
  const { values, positionals } = parse(
    'backup',
    args,
    { verify: { type: 'boolean', help: 'then open the copy, check its integrity and print its record counts' } },
    ['file'],
  );
  const [file] = positionals;
  const url = databaseUrl(values);
  const started = Date.now();
  await failingClearly('backup', () => backupDatabase(url, file));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`backed up ${redact(url)} to ${file}: ${mebibytes(statSync(file).size)} in ${seconds} s\n`);
  if (values.verify) await verifyAndPrint('backup', file);
}

export async function verifyBackupCommand(args: string[]): Promise<void> {
  const { positionals } = parse('verify-backup', args, {}, ['file']);
  await verifyAndPrint('verify-backup', positionals[0]);
}

export async function restore(args: string[]): Promise<void> {
  const { values, positionals } = parse(
    'restore',
    args,
    { force: { type: 'boolean', help: 'replace a database that is not empty (everything in it is lost)' } },
    ['file'],
  );
  const [file] = positionals;
  const url = databaseUrl(values);
  const started = Date.now();
  const counts = await failingClearly('restore', () => restoreBackup(file, url, values.force === true));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`restored ${file} into ${redact(url)} in ${seconds} s\n${countLines(counts)}`);
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
