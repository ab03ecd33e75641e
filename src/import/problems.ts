import type { ErrorDetail } from '../errors.js';
import type { Kind } from '../resources/registry.js';

// The problems of one import, each at its record's place in the file: `products[12].price: …`
// in a JSON document, `line 40: price …` in an NDJSON file, `row 7: price …` in a CSV. Every
// problem is counted; the first MAX_PROBLEMS are listed.

export type Place = number; // the index in a JSON list, the line of an NDJSON file, a CSV's row
export type PlaceFormat = (kind: Kind | 'project', place: Place) => string;

export const MAX_PROBLEMS = 100;

export class Problems {
  readonly listed: string[] = [];
  count = 0;

  constructor(readonly formatPlace: PlaceFormat) {}

  /** Whether no more are listed: a problem found now is counted only (spare its look-ups). */
  get full(): boolean {
    return this.listed.length >= MAX_PROBLEMS;
  }

  add(kind: Kind | 'project', place: Place | string, field: string, message: string): void {
    this.count++;
    if (this.full) return;
    const where = typeof place === 'string' ? place : this.formatPlace(kind, place);
    const byLine = where.startsWith('line ') || where.startsWith('row ');
    this.listed.push(
      !field ? `${where}: ${message}` : byLine ? `${where}: ${field} ${message}` : `${where}.${field}: ${message}`,
    );
  }

  addAll(kind: Kind | 'project', place: Place, details: ErrorDetail[]): void {
    for (const d of details) this.add(kind, place, d.field, d.message);
  }
}
