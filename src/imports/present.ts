import { type ImportChanges, type ImportWarning, noChanges } from '../import/report.js';
import { type Kind, RESOURCES } from '../resources/registry.js';
import type { ImportFormat } from './spool.js';
import type { ImportJobRow, ImportProblem, ImportStatus, LiveProgress } from './store.js';

// An import job's row as the API shows it, the Import (docs/API.md, "Imports").

export type ImportCounts = Record<Kind, { upserted: number; deleted: number }>;

export interface ImportRecord {
  id: number;
  status: ImportStatus;
  dry_run: boolean;
  format: ImportFormat;
  bytes: number;
  records_read: number;
  progress: number;
  counts: ImportCounts;
  changes: ImportChanges;
  errors: ImportProblem[];
  errors_total: number;
  warnings: ImportWarning[];
  warnings_total: number;
  cursor_before: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export function noImportCounts(): ImportCounts {
  return Object.fromEntries(RESOURCES.map((r) => [r.kind, { upserted: 0, deleted: 0 }])) as ImportCounts;
}

export function presentJob(row: ImportJobRow, live?: LiveProgress): ImportRecord {
  const running = row.status === 'running';
  return {
    id: Number(row.id),
    status: row.status,
    dry_run: Number(row.dry_run) === 1,
    format: row.format,
    bytes: Number(row.bytes),
    records_read: running && live ? Math.max(live.records_read, Number(row.records_read)) : Number(row.records_read),
    progress: running && live ? Math.max(live.progress, Number(row.progress)) : Number(row.progress),
    counts: row.counts ? (JSON.parse(row.counts) as ImportCounts) : noImportCounts(),
    changes: row.changes ? (JSON.parse(row.changes) as ImportChanges) : noChanges(),
    errors: row.errors ? (JSON.parse(row.errors) as ImportProblem[]) : [],
    errors_total: Number(row.errors_total),
    warnings: row.warnings ? (JSON.parse(row.warnings) as ImportWarning[]) : [],
    warnings_total: Number(row.warnings_total),
    cursor_before: row.cursor_before,
    created_at: Number(row.created_at),
    started_at: row.started_at === null ? null : Number(row.started_at),
    finished_at: row.finished_at === null ? null : Number(row.finished_at),
  };
}
