import { enlargePageCache } from '../db/connect.js';
import { ImportError, importFile } from '../import/import.js';
import { RESOURCES } from '../resources/registry.js';
import { CliError, parse, withStorage } from './context.js';

export async function importCommand(args: string[]): Promise<void> {
  const { values, positionals } = parse('import', args, {}, ['file']);
  const [file] = positionals;
  const tty = process.stderr.isTTY;
  const started = Date.now();
  try {
    const summary = await withStorage(values, (storage) => {
      // 128 MiB: a million-product import then stays under 400 MB (docs/PERFORMANCE.md).
      enlargePageCache(storage, 128);
      return importFile(storage.db, file, {
        onProgress: tty ? (n) => process.stderr.write(`\rread ${n.toLocaleString('en-US')} records…`) : undefined,
      });
    });
    if (tty) process.stderr.write('\r\x1b[K');
    const counts = RESOURCES.map(({ kind }) => `${summary.counts[kind]} ${kind}`).join(', ');
    const deleted = RESOURCES.some(({ kind }) => summary.deleted[kind] > 0)
      ? `; deleted ${RESOURCES.map(({ kind }) => `${summary.deleted[kind]} ${kind}`).join(', ')}`
      : '';
    process.stdout.write(
      `imported into ${summary.projectId}: ${counts}${deleted} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
    );
  } catch (e) {
    if (tty) process.stderr.write('\r\x1b[K');
    if (e instanceof ImportError) {
      const more = e.total > e.problems.length ? [`… and ${e.total - e.problems.length} more`] : [];
      throw new CliError(
        `storefront import: ${file}: ${e.total} problem${e.total === 1 ? '' : 's'}, nothing was imported`,
        1,
        [...e.problems, ...more],
      );
    }
    throw e;
  }
}
