// CSV injection (OWASP): a spreadsheet runs a cell that begins with one of these characters
// as a formula. Every cell an export writes that begins with one gets a `'` in front, which a
// spreadsheet shows as text; an import removes that one `'` again, so the round trip keeps
// the value. The rule knows no column: a negative number (`-5`) is prefixed too (`'-5`),
// since a cell such as `-2+3` or `-cmd|…` begins the same way and the contract prefixes
// every such cell (docs/API.md, "CSV").

const FORMULA_CHARACTERS = '=+-@\t\r';
const PREFIXED = /^'[=+\-@\t\r]/;

/** The cell as an export writes it: `'` before a leading formula character. */
export function defuse(cell: string): string {
  // The first character looked up, not a regular expression: an export tests every cell.
  return cell !== '' && FORMULA_CHARACTERS.includes(cell[0]) ? `'${cell}` : cell;
}

/** The cell as an import reads it: the export's `'` before a formula character removed. */
export function undefuse(cell: string): string {
  return PREFIXED.test(cell) ? cell.slice(1) : cell;
}
