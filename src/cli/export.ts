import { ExportError, exportProject } from '../export/export.js';
import { CliError, parse, withStorage } from './context.js';

export async function exportCommand(args: string[]): Promise<void> {
  const { values, positionals } = parse('export', args, {}, ['project_id']);
  await withStorage(values, async (storage) => {
    try {
      await exportProject(storage.db, positionals[0], process.stdout);
    } catch (e) {
      if (e instanceof ExportError) throw new CliError(`storefront export: ${e.message}`);
      throw e;
    }
  });
}
