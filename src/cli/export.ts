import { EXPORT_FORMATS, ExportError, type ExportFormat, exportProject } from '../export/export.js';
import { emitTo } from '../export/snapshot-stream.js';
import { CliError, parse, withStorage } from './context.js';

export async function exportCommand(args: string[]): Promise<void> {
  const { values, positionals } = parse(
    'export',
    args,
    {
      format: {
        type: 'string',
        value: 'json|ndjson',
        help: 'json (one document, the default) or ndjson (one record a line)',
      },
    },
    ['project_id'],
  );
  const format = (values.format ?? 'json') as ExportFormat;
  if (!EXPORT_FORMATS.includes(format))
    throw new CliError(`storefront export: --format must be ${EXPORT_FORMATS.join(' or ')}, not "${format}"`, 2);
  await withStorage(values, async (storage) => {
    try {
      await storage.reads.longSnapshot((db) => exportProject(db, positionals[0], emitTo(process.stdout), format));
    } catch (e) {
      if (e instanceof ExportError) throw new CliError(`storefront export: ${e.message}`);
      throw e;
    }
  });
}
