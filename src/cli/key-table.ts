import type { KeyInfo } from '../keys/repository.js';
import { SCOPES } from '../keys/scopes.js';

// `storefront key list`: a table for a person at a terminal, tab-separated lines for a
// script (the first four columns as they always were: id, label, created_at, last_used_at;
// then scopes and expires_at). Never a secret: KeyInfo holds none.

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
const oneLine = (text: string) => text.replace(/[\t\r\n]/g, ' ');

/** One key a line, tab-separated; times in unix seconds, empty when there is none. */
export function keysAsLines(keys: KeyInfo[]): string {
  return keys
    .map((k) =>
      [k.id, oneLine(k.label), k.created_at, k.last_used_at ?? '', k.scopes.join(','), k.expires_at ?? ''].join('\t'),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/** A table with a header row, times in ISO 8601 (UTC); "all" when a key has every scope. */
export function keysAsTable(keys: KeyInfo[]): string {
  const header = ['ID', 'LABEL', 'SCOPES', 'CREATED', 'EXPIRES', 'LAST USED'];
  const rows = keys.map((k) => [
    String(k.id),
    oneLine(k.label) || '-',
    k.scopes.length === SCOPES.length ? 'all' : k.scopes.join(',') || 'none',
    iso(k.created_at),
    k.expires_at === null ? 'never' : iso(k.expires_at),
    k.last_used_at === null ? 'never' : iso(k.last_used_at),
  ]);
  if (rows.length === 0) return 'no keys (make one with: storefront key create <project_id>)\n';
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows]
    .map(
      (r) =>
        `${r
          .map((cell, i) => cell.padEnd(widths[i]))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}
