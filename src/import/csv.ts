import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { CsvError, parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { headerProblems, productFromCells } from '../resources/products/csv-columns.js';
import { mergeProduct, storedProductsOf } from '../resources/products/csv-merge.js';
import { projectRecord } from '../resources/projects/record.js';
import { findProject } from '../resources/projects/repository.js';
import type { PlaceFormat } from './problems.js';
import { ImportError, type ImportOptions, type ImportSummary, run, ticker } from './run.js';
import type { ImportSession } from './session.js';

// A products CSV (docs/API.md, "CSV import"): RFC 4180, UTF-8 with or without a BOM, cells
// separated by `,` or by `;` (a European spreadsheet's; told by the header row), a header
// row naming product columns, then one product a row, read as a stream by csv-parse. A row
// changes only the columns the file has (csv-merge.ts), unless the import replaces whole
// records. A CSV names no project: its products go into the import's project, which must
// exist. Rows are
// numbered as a spreadsheet shows them: the header is row 1, the first product row 2 (a
// quoted cell holding line breaks is still one row).

export const csvPlace: PlaceFormat = (_kind, row) => `row ${row}`;

/** csv-parse's options: one record may not grow past this (an unclosed quote would read the rest of the file into it). */
const OPTIONS = { bom: true, relax_column_count: true, max_record_size: 8 << 20 } as const;

/** Rows whose stored products are read at once (csv-merge.ts). */
const CHUNK = 500;

/**
 * The cell separator of a file that begins with `text`: `;` when its first row holds more
 * `;` than `,` outside quotes (no product column's name holds either), else `,`.
 */
export function delimiterOf(text: string): ',' | ';' {
  let quoted = false;
  let commas = 0;
  let semicolons = 0;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '\n' || c === '\r') break;
    else if (c === ',') commas++;
    else if (c === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** The header's first bytes read: enough for any header of product columns. */
const HEADER_BYTES = 64 * 1024;

/** The header row of a CSV file, if it can be read from its first bytes (else undefined: the import checks it). */
export async function readCsvHeader(path: string): Promise<string[] | undefined> {
  try {
    const { text, whole } = await firstBytes(path);
    const rows: string[][] = parseSync(text, { ...OPTIONS, delimiter: delimiterOf(text), to: 1 });
    // A first record cut off by the end of the bytes read is no header yet.
    const complete = rows.length === 1 && (whole || /\r?\n/.test(text));
    return complete ? rows[0] : undefined;
  } catch {
    return undefined; // broken from the start: the import says where
  }
}

/** The file's first bytes as text (its header row, for its delimiter). */
async function firstBytes(path: string): Promise<{ text: string; whole: boolean }> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(HEADER_BYTES), 0, HEADER_BYTES, 0);
    return { text: buffer.subarray(0, bytesRead).toString('utf8'), whole: bytesRead < HEADER_BYTES };
  } finally {
    await file.close();
  }
}

export async function importCsv(db: Kysely<Database>, path: string, options: ImportOptions): Promise<ImportSummary> {
  const name = options.name ?? path;
  if (options.project === undefined)
    throw new ImportError([`${name}: a CSV names no project: say which project its products go into (--project <id>)`]);
  const project = await findProject(db, options.project);
  if (!project)
    throw new ImportError([
      `${name}: project "${options.project}" does not exist; a CSV loads products into an existing project`,
    ]);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    throw new ImportError([`${name}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  const delimiter = delimiterOf((await firstBytes(path)).text);
  let stream: ReturnType<typeof createReadStream> | undefined;
  const record = projectRecord(project);
  const refuse = (id: string, wanted: string) => `project "${id}" is not "${wanted}"`;
  try {
    return await run(db, record, csvPlace, refuse, options, async (session) => {
      // Each reading (a staged import may read again inside its write) from the top.
      stream?.destroy();
      const opened = (stream = createReadStream(path));
      const tick = ticker(options, () => opened.bytesRead / Math.max(size, 1));
      session.useProject(record);
      const rows = opened.pipe(parse({ ...OPTIONS, delimiter }));
      const reader = new CsvReader(session, record, options.replace === true);
      try {
        for await (const cells of rows as AsyncIterable<string[]>) {
          if (!(await reader.read(cells))) break;
          await tick(reader.products);
        }
      } catch (e) {
        if (!(e instanceof CsvError)) throw e;
        // The parser reads ahead of the rows handed on: its own count says where it stopped.
        const parsed = (e as CsvError & { records?: number }).records;
        session.problems.add('products', (typeof parsed === 'number' ? parsed : reader.rows) + 1, '', brokenCsv(e));
      } finally {
        rows.destroy();
      }
      await reader.flush();
      if (reader.rows === 0)
        session.problems.add('products', 1, '', 'the file is empty: the first row names the columns');
      return reader.products;
    });
  } finally {
    stream?.destroy();
  }
}

/** csv-parse's failure as a message for the row it stopped in. */
function brokenCsv(e: CsvError): string {
  if (e.code === 'CSV_QUOTE_NOT_CLOSED')
    return 'a quoted cell is never closed (a `"` opens it and none ends it before the end of the file)';
  if (e.code === 'CSV_MAX_RECORD_SIZE') return 'is longer than 8 MiB: a quoted cell not closed?';
  if (e.code === 'CSV_INVALID_CLOSING_QUOTE')
    return 'a quoted cell goes on after its closing `"` (a `"` inside a quoted cell is written `""`)';
  return `is not valid CSV (${e.message})`;
}

/** Hands each row to the session as a product record; the header first. */
class CsvReader {
  /** rows read, the header's included: the number of the row just read */
  rows = 0;
  products = 0;
  private header: string[] = [];
  /** rows read and not yet handed on, with their row numbers and the problems of their cells */
  private pending: { row: number; cells?: Record<string, unknown>; problems: { field: string; message: string }[] }[] =
    [];

  constructor(
    private readonly session: ImportSession,
    private readonly project: { id: string; currency: string },
    private readonly replace: boolean,
  ) {}

  /** false: stop reading (the header is wrong, so no row can be read). */
  async read(cells: string[]): Promise<boolean> {
    const row = ++this.rows;
    const { problems } = this.session;
    if (row === 1) {
      this.header = cells.map((c) => c.trim());
      for (const p of headerProblems(this.header, this.replace))
        problems.add('products', row, '', `column "${p.field}" ${p.message}`);
      return problems.count === 0;
    }
    // A blank row (a spreadsheet's empty line: no cell with anything in it) is no product.
    if (cells.every((c) => c === '')) return true;
    this.products++;
    // Problems are added as rows are handed on (flush), so that they stay in file order.
    if (cells.length !== this.header.length) {
      const message = `has ${cells.length} cells, but the header names ${this.header.length} columns`;
      this.pending.push({ row, problems: [{ field: '', message }] });
    } else {
      const { record, currency, problems } = productFromCells(
        Object.fromEntries(this.header.map((h, i) => [h, cells[i]])),
      );
      if (currency !== undefined && currency !== this.project.currency)
        problems.push({
          field: 'currency',
          message: `is "${currency}", but the project's currency is "${this.project.currency}"`,
        });
      this.pending.push({ row, cells: record, problems });
    }
    if (this.pending.length >= CHUNK) await this.flush();
    return true;
  }

  /** Hands the rows read on to the session, each merged into its stored product unless whole records are replaced. */
  async flush(): Promise<void> {
    const chunk = this.pending;
    this.pending = [];
    const { db } = this.session;
    const { id, currency } = this.project;
    const rows = chunk.flatMap((c) => (c.cells ? [c.cells] : []));
    const stored = this.replace || !db ? undefined : await storedProductsOf(db, id, currency, rows);
    for (const { row, cells, problems } of chunk) {
      for (const p of problems) this.session.problems.add('products', row, p.field, p.message);
      if (!cells) continue;
      if (!stored) {
        await this.session.add('products', cells, row);
        continue;
      }
      const { record, problem } = mergeProduct(stored.get(cells.id as number), cells, this.header);
      if (problem) this.session.problems.add('products', row, problem.field, problem.message);
      await this.session.add('products', record, row);
    }
  }
}
