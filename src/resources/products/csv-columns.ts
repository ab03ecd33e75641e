import { defuse, undefuse } from '../formula.js';
import { Product } from './schemas.js';

// A product as a CSV row and back (docs/API.md, "CSV"): the export writes these cells, the
// import reads them, so that a products CSV exported and imported again gives the same
// records. The fields of a Product are the columns; `category_ids` are `;`-separated ids;
// `images` are `url` or `url|alt` items separated by `;` (a `;`, `|` or `\` inside a url or
// an alt is escaped with `\`); booleans are `true`/`false`; a null or absent value is an
// empty cell, and an empty cell on import leaves the field to its default (an empty `id`
// is a new product).

// The columns are a Product's fields in the order of its schema, which is the order of
// CONTRACT 3: a field added to the record is a column of the file too.
export const PRODUCT_CSV_COLUMNS = Object.keys(Product.properties) as readonly Column[];

type Column = keyof Product;

const INTEGERS = new Set<string>(['id', 'price', 'stock_quantity', 'custom_sort', 'created_at', 'updated_at']);
const BOOLEANS = new Set<string>(['in_stock', 'show_in_store']);

/** A product's cells, in the order of PRODUCT_CSV_COLUMNS, each defused (formula.ts). */
export function productCells(p: Product): string[] {
  const cells = [
    String(p.id),
    p.handle,
    p.name,
    p.description,
    p.sku ?? '',
    String(p.price),
    p.currency,
    p.inventory_type,
    String(p.in_stock),
    p.stock_quantity === null ? '' : String(p.stock_quantity),
    String(p.show_in_store),
    String(p.custom_sort),
    p.category_ids.join(';'),
    p.images.map((i) => (i.alt === '' ? escape(i.url) : `${escape(i.url)}|${escape(i.alt)}`)).join(';'),
    String(p.created_at),
    String(p.updated_at),
  ];
  for (let i = 0; i < cells.length; i++) cells[i] = defuse(cells[i]);
  return cells;
}

/** The columns a `mode=replace` import needs: the fields a product record cannot do without. */
export const REQUIRED_PRODUCT_COLUMNS = ['handle', 'name', 'price'] as const;

/** The header's names that are not product columns (an import refuses them). */
export function unknownColumns(header: readonly string[]): string[] {
  return header.filter((name) => !(PRODUCT_CSV_COLUMNS as readonly string[]).includes(name));
}

/** What is wrong with an import's header row, as `{ field, message }` (none: it is fine). */
export function headerProblems(header: readonly string[], replace = false): { field: string; message: string }[] {
  const problems = unknownColumns(header).map((name) => ({
    field: name,
    message: `is not a product column (${PRODUCT_CSV_COLUMNS.join(', ')})`,
  }));
  if (!replace && !header.includes('id') && !header.includes('handle'))
    problems.push({ field: 'id', message: "or handle is a required column: it finds each row's product" });
  for (const name of replace ? REQUIRED_PRODUCT_COLUMNS : [])
    if (!header.includes(name))
      problems.push({ field: name, message: 'is a required column, missing from the header' });
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name) && !problems.some((p) => p.field === name))
      problems.push({ field: name, message: 'is named twice in the header' });
    seen.add(name);
  }
  return problems;
}

/**
 * A row's cells (by column name) as an import record: the `'` before a formula character
 * removed, empty cells left out, integers and booleans as such when they read as one (else
 * the text, which the record's schema then refuses with its message). `currency` is the
 * project's and not part of the record: it is returned apart, for the import to compare.
 * `problems` are cells that cannot be read without guessing (left out of the record).
 */
export function productFromCells(cells: Record<string, string>): {
  record: Record<string, unknown>;
  currency?: string;
  problems: { field: string; message: string }[];
} {
  const record: Record<string, unknown> = {};
  const problems: { field: string; message: string }[] = [];
  let currency: string | undefined;
  for (const [name, raw] of Object.entries(cells)) {
    const cell = undefuse(raw);
    if (cell === '') continue;
    if (name === 'currency') currency = cell;
    else if (name === 'images') {
      const images = imagesOf(cell);
      if (typeof images === 'string') problems.push({ field: name, message: images });
      else record[name] = images;
    } else record[name] = valueOf(name as Column, cell);
  }
  return { record, currency, problems };
}

function valueOf(name: Column, cell: string): unknown {
  if (INTEGERS.has(name)) return /^-?\d{1,16}$/.test(cell) ? Number(cell) : cell;
  if (BOOLEANS.has(name)) return /^true$/i.test(cell) ? true : /^false$/i.test(cell) ? false : cell;
  if (name === 'category_ids')
    return cell.split(';').map((id) => (/^\s*\d{1,16}\s*$/.test(id) ? Number(id) : id.trim()));
  return cell;
}

/** An images cell as its images, or what makes it ambiguous (a message for its row). */
function imagesOf(cell: string): { url: string; alt: string }[] | string {
  const lone = /\\(?:[^\\;|]|$)/su.exec(cell.replace(/\\[\\;|]/g, '  '));
  if (lone)
    return (
      `has a \`\\\` at character ${lone.index + 1} that escapes nothing: inside a url or an alt, ` +
      'write `\\;` for `;`, `\\|` for `|` and `\\\\` for `\\`'
    );
  const images: { url: string; alt: string }[] = [];
  for (const [i, item] of splitEscaped(cell, ';').entries()) {
    const parts = splitEscaped(item, '|');
    if (parts.length > 2)
      return `has more than one \`|\` in image ${i + 1} (\`url|alt\`): a \`|\` inside a url or an alt is written \`\\|\``;
    images.push({ url: unescape(parts[0]), alt: unescape(parts[1] ?? '') });
  }
  return images;
}

function escape(text: string): string {
  return text.replace(/[\\;|]/g, '\\$&');
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

/** Splits at each `separator` not escaped by `\`; the parts keep their escapes. */
function splitEscaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
