import { ImportError, importFile } from '../import/import.js';
import { RESOURCES } from '../resources/registry.js';
import { countsOf } from './plural.js';
import { importReport } from './import-report.js';
import { CliError, parse, withStorage } from './context.js';

export async function importCommand(args: string[]): Promise<void> {
  const { values, positionals } = parse(
    'import',
    args,
    {
      project: {
        type: 'string',
        value: '<id>',
        help: 'the project a products CSV goes into (a CSV names none; it must exist); a JSON or NDJSON file must name it',
      },
      'dry-run': {
        type: 'boolean',
        help: 'check everything and write nothing (the import runs, then rolls back); prints what would change, and the warnings',
      },
      replace: {
        type: 'boolean',
        help: "a CSV's rows replace whole products (fields of missing columns take their defaults) instead of changing only the columns given",
      },
    },
    ['file'],
  );
  const [file] = positionals;
  const dryRun = values['dry-run'] === true;
  const project = values.project as string | undefined;
  if (file.toLowerCase().endsWith('.csv') && project === undefined)
    throw new CliError(
      `storefront import: ${file} is a products CSV, which names no project: say which one it goes into (storefront import ${file} --project <id>)`,
      2,
    );
  const tty = process.stderr.isTTY;
  const started = Date.now();
  try {
    // A page cache of 128 MiB for SQLite: with the default 2 MiB the index pages of a million
    // rows are evicted and read again for every batch (docs/PERFORMANCE.md, "Bulk loads").
    // Queries in threads (one reader, and the writer): the writer thread writes a batch while
    // this thread reads and checks the next (ImportSession.flush).
    const summary = await withStorage(
      values,
      (storage) =>
        importFile(storage.db, file, {
          dryRun,
          project,
          replace: values.replace === true,
          onProgress: tty ? (n) => process.stderr.write(`\rread ${n.toLocaleString('en-US')} records…`) : undefined,
        }),
      { sqliteCacheMiB: 128, sqliteReaders: 1 },
    );
    if (tty) process.stderr.write('\r\x1b[K');
    const counts = countsOf(summary.counts);
    const deleted = RESOURCES.some(({ kind }) => summary.deleted[kind] > 0)
      ? `; deleted ${countsOf(summary.deleted)}`
      : '';
    const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
    process.stdout.write(
      dryRun
        ? `checked for ${summary.projectId}, nothing was written (dry run): would import ${counts}${deleted} (${took})\n`
        : `imported into ${summary.projectId}: ${counts}${deleted} (${took})\n`,
    );
    process.stdout.write(importReport(summary));
  } catch (e) {
    if (tty) process.stderr.write('\r\x1b[K');
    if (e instanceof ImportError) {
      const more = e.total > e.problems.length ? [`… and ${e.total - e.problems.length} more`] : [];
      throw new CliError(
        `storefront import: ${file}: ${e.total} problem${e.total === 1 ? '' : 's'}, nothing was ${dryRun ? 'written (dry run)' : 'imported'}`,
        1,
        [...e.problems, ...more],
      );
    }
    throw e;
  }
}
