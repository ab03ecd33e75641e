import { BackupError, type BackupFormat, type TableCounts, formatOf, isPartialName } from './backup-files.js';
import { redact } from './connect.js';
import { backupPostgres, postgresContents, restorePostgres, verifyPostgres } from './pg-backup.js';
import { backupSqlite, restoreSqlite, sqliteProjects, verifySqlite } from './sqlite-backup.js';

// Backups and restores of a whole database (CONTRACT 20; docs/DEPLOY.md, "Backups"): a SQLite
// file is copied as a SQLite file (sqlite-backup.ts), a PostgreSQL database as a pg_dump
// custom-format file (pg-backup.ts). A backup restores into the backend it came from; moving a
// project between backends is what export and import are for.

export { BackupError, isPartialName } from './backup-files.js';
export type { TableCounts } from './backup-files.js';

function backendOf(url: string): BackupFormat {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'pg_dump';
  throw new BackupError(`unsupported storage URL "${redact(url)}": use sqlite:<path> or postgres://…`);
}

/** Writes a consistent copy of the database of `url` to `file` (complete, or not there at all). */
export async function backupDatabase(url: string, file: string): Promise<void> {
  if (backendOf(url) === 'sqlite') await backupSqlite(url.slice('sqlite:'.length), file);
  else await backupPostgres(url, file);
}

/** Checks a backup whole: its format, its integrity and completeness; its record counts. */
export async function verifyBackup(file: string): Promise<{ format: BackupFormat; counts: TableCounts }> {
  if (isPartialName(file))
    throw new BackupError(`${file} is a backup being written, or one a process left when it died: not a backup`);
  const format = formatOf(file);
  if (format === 'sqlite') return { format, counts: verifySqlite(file) };
  if (format === 'pg_dump') return { format, counts: await verifyPostgres(file) };
  throw new BackupError(`${file} is not a backup of this service (neither a SQLite database nor a pg_dump file)`);
}

/**
 * Fills the database of `url` from a backup, verified first. A database that holds projects is
 * refused unless `force`; a restored database moves every project's version past the lost
 * database's (restore-versions.ts).
 */
export async function restoreBackup(file: string, url: string, force: boolean): Promise<TableCounts> {
  const { format, counts } = await verifyBackup(file);
  const target = backendOf(url);
  if (format !== target)
    throw new BackupError(
      `${file} is a ${format === 'sqlite' ? 'SQLite' : 'PostgreSQL'} backup and restores only into ${format === 'sqlite' ? 'sqlite:<path>' : 'postgres://…'} (between backends, use export and import)`,
    );
  const refuse = (projects: number) => {
    if (projects > 0 && !force)
      throw new BackupError(
        `${redact(url)} is not empty (${projects} project${projects === 1 ? '' : 's'}): restore fills an empty database; --force replaces it`,
      );
  };
  if (target === 'sqlite') {
    const path = url.slice('sqlite:'.length);
    if (path === ':memory:' || path === '') throw new BackupError('restore needs a database file: sqlite:<path>');
    refuse(sqliteProjects(path));
    await restoreSqlite(file, path);
  } else {
    const { tables, projects } = await postgresContents(url);
    if (tables.length > 0 && !tables.includes('kysely_migration') && !force)
      throw new BackupError(
        `${redact(url)} holds other tables (${tables.slice(0, 3).join(', ')}…); --force drops them`,
      );
    refuse(projects);
    await restorePostgres(file, url, tables);
  }
  return counts;
}
