import { type Kind, RESOURCES } from '../resources/registry.js';
import type { Place, PlaceFormat } from './problems.js';

// What an import changes, as its dry run and its Import report it (docs/API.md, "What an
// import reports"): by record kind, the records created, updated, left unchanged and deleted,
// and for the updated ones how many changed each field; and the warnings, values that look
// damaged by a spreadsheet (damage.ts). Warnings never stop an import.

export interface KindChanges {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  /** by field: the updated records whose field changes */
  fields: Record<string, number>;
}

export type ImportChanges = Record<Kind, KindChanges>;

export interface ImportWarning {
  place: string;
  field: string;
  message: string;
}

export const MAX_WARNINGS = 100;

export function noChanges(): ImportChanges {
  return Object.fromEntries(
    RESOURCES.map((r) => [r.kind, { created: 0, updated: 0, unchanged: 0, deleted: 0, fields: {} }]),
  ) as ImportChanges;
}

export class ImportReport {
  readonly changes = noChanges();
  readonly warnings: ImportWarning[] = [];
  warningsTotal = 0;

  constructor(private readonly formatPlace: PlaceFormat) {}

  /** An updated record and the fields it changes. */
  updated(kind: Kind, fields: readonly string[]): void {
    const of = this.changes[kind];
    of.updated++;
    for (const field of fields) of.fields[field] = (of.fields[field] ?? 0) + 1;
  }

  warn(kind: Kind, place: Place | undefined, field: string, message: string): void {
    this.warningsTotal++;
    if (this.warnings.length >= MAX_WARNINGS) return;
    this.warnings.push({ place: place === undefined ? kind : this.formatPlace(kind, place), field, message });
  }
}
