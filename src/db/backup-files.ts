import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// What backups on both backends share: the temporary name a backup is written under, and the
// rename that makes it a backup. Until the rename the file has a name no reader takes for a
// finished backup (`.<name>.partial-<random>` beside it, in the same folder so that the
// rename is atomic); a process killed mid-backup leaves only such a file.

export class BackupError extends Error {}

export type BackupFormat = 'sqlite' | 'pg_dump';

/** A fresh temporary name beside `file`. */
export function partialName(file: string): string {
  return join(dirname(file), `.${basename(file)}.partial-${randomBytes(4).toString('hex')}`);
}

/**
 * Whether a name is one of partialName's (a backup being written, or left by a killed process),
 * or the journal SQLite keeps beside one while it is marked complete.
 */
export function isPartialName(file: string): boolean {
  return /^\..+\.partial-[0-9a-f]{8}(-journal)?$/.test(basename(file));
}

/** Flushes `partial` to the disk and gives it its final name, durably. */
export function finish(partial: string, file: string): void {
  const fd = openSync(partial, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(partial, file);
  // The rename itself is durable once the folder is flushed.
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

export function discard(partial: string): void {
  rmSync(partial, { force: true });
}

/** The kind of backup a file holds, by its first bytes; undefined for anything else. */
export function formatOf(file: string): BackupFormat | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BackupError(code === 'ENOENT' ? `${file}: no such file` : `${file}: cannot be read (${code})`);
  }
  const head = Buffer.alloc(16);
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') === 'SQLite format 3\0') return 'sqlite';
  if (head.subarray(0, 5).toString('latin1') === 'PGDMP') return 'pg_dump';
  return undefined;
}

/** The tables a verification counts, in the order it prints them. */
export const COUNTED_TABLES = [
  'projects',
  'categories',
  'products',
  'plans',
  'users',
  'orders',
  'api_keys',
  'webhook_endpoints',
  'webhook_deliveries',
  'changes',
] as const;

export type TableCounts = Partial<Record<(typeof COUNTED_TABLES)[number], number>>;
