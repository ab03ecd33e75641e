import type { ImportSummary } from '../import/import.js';
import { RESOURCES } from '../resources/registry.js';

// What `storefront import` prints after its line of counts (docs/API.md, "What an import
// reports"): for each record kind the import touched, what it changed and in which fields,
// then the warnings, values that look damaged by a spreadsheet, each at its place.

export function importReport(summary: ImportSummary): string {
  const lines: string[] = [];
  for (const { kind } of RESOURCES) {
    const c = summary.changes[kind];
    if (c.created + c.updated + c.unchanged + c.deleted === 0) continue;
    const fields = Object.entries(c.fields)
      .map(([field, n]) => `${field} ${n}`)
      .join(', ');
    const counts = `${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged, ${c.deleted} deleted`;
    lines.push(`  ${kind}: ${counts}${fields ? ` (fields changed: ${fields})` : ''}`);
  }
  const { warnings, warningsTotal } = summary;
  if (warningsTotal > 0) {
    lines.push(`${warningsTotal} warning${warningsTotal === 1 ? '' : 's'} (values a spreadsheet may have damaged):`);
    for (const w of warnings) lines.push(`  ${w.place}: ${w.field} ${w.message}`);
    if (warningsTotal > warnings.length) lines.push(`  … and ${warningsTotal - warnings.length} more`);
  }
  return lines.map((l) => `${l}\n`).join('');
}
