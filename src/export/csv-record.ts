// One CSV record as RFC 4180 writes it (docs/API.md, "CSV"): cells separated by commas, a
// cell quoted when it holds a comma, a quote, a carriage return or a line feed, with its
// quotes doubled; CRLF after every record, the last one too. These are csv-stringify's bytes
// (test/exports/csv-record.test.ts compares them), written four times as fast: an export
// spent more time in csv-stringify than in presenting its rows (docs/PERFORMANCE.md, "CSV
// export"). csv-stringify as the export called it (`record_delimiter: 'windows'`) left a lone
// line feed or carriage return unquoted, which a spreadsheet reads as the row's end.

// With `;` between cells (a European spreadsheet's), a cell holding `;` is quoted instead.

export type Separator = ',' | ';';

const NEEDS_QUOTES = { ',': /[",\r\n]/, ';': /[";\r\n]/ };

export function csvRecord(cells: readonly string[], separator: Separator = ','): string {
  const needsQuotes = NEEDS_QUOTES[separator];
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (i > 0) line += separator;
    line += needsQuotes.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }
  return `${line}\r\n`;
}
