import { CompiledQuery, type Kysely, sql } from 'kysely';
import pgCopy from 'pg-copy-streams';

// Bulk writes on PostgreSQL through `COPY … FROM STDIN` (pg-copy-streams), for imports: the
// rows go over as text in COPY's own format, which the server reads with no parameters to
// bind and no array literal to parse (unnest-insert.ts, the way before, sent one array per
// column). Plain rows are copied into their table; an upsert copies them into a temporary
// staging table of the transaction and then writes them with one INSERT … SELECT … ON
// CONFLICT, the same statement as before, so the rows, triggers and conflicts are the same.
// docs/PERFORMANCE.md, "Imports over COPY", has the figures.
//
// The COPY runs on the connection of the caller's transaction: Kysely hands the statement's
// text to node-postgres's `client.query`, which takes a submittable query (the COPY stream)
// in its place and queues it on that connection like any statement.

type Row = Record<string, unknown>;

/** Copies the rows (all with the same keys) into `table`. */
export async function copyRows(trx: Kysely<any>, table: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  await copyInto(trx, table, columns, rows);
}

/** Copies the rows into a staging table, then upserts them on `key` into `table`. */
export async function copyUpsert(trx: Kysely<any>, table: string, rows: Row[], key: string[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  const stage = await stagingTable(trx, table, columns);
  await copyInto(trx, stage, columns, rows);
  const list = sql.join(columns.map((c) => sql.ref(c)));
  const updates = columns.filter((c) => !key.includes(c)).map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`);
  await sql`insert into ${sql.table(table)} (${list}) select ${list} from ${sql.table(stage)}
    on conflict (${sql.join(key.map((c) => sql.ref(c)))}) do update set ${sql.join(updates)}`.execute(trx);
  // Created in this transaction: emptied in place, no new file.
  await sql`truncate ${sql.table(stage)}`.execute(trx);
}

/** By transaction: the staging table made for each table and column list. */
const staged = new WeakMap<Kysely<any>, Map<string, string>>();

/** A temporary table with the columns' types, dropped when the transaction ends. */
async function stagingTable(trx: Kysely<any>, table: string, columns: string[]): Promise<string> {
  let tables = staged.get(trx);
  if (!tables) staged.set(trx, (tables = new Map<string, string>()));
  const key = `${table}(${columns.join(',')})`;
  let name = tables.get(key);
  if (name === undefined) {
    name = `copy_stage_${table}_${tables.size}`;
    await sql`create temporary table ${sql.table(name)} on commit drop as
      select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)} with no data`.execute(trx);
    tables.set(key, name);
  }
  return name;
}

async function copyInto(trx: Kysely<any>, table: string, columns: string[], rows: Row[]): Promise<void> {
  const stream = pgCopy.from(`copy "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) from stdin`);
  const done = new Promise<void>((resolve, reject) => {
    stream.once('finish', resolve);
    stream.once('error', reject);
  });
  // node-postgres runs a submittable given as the text; Kysely passes the text on as it is.
  await trx.executeQuery({ ...CompiledQuery.raw(''), sql: stream as unknown as string });
  stream.end(copyText(columns, rows));
  await done;
}

/** The rows in COPY's text format: tab-separated, `\N` for null, backslash escapes. */
export function copyText(columns: string[], rows: Row[]): string {
  let text = '';
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < columns.length; i++) {
      if (i > 0) line += '\t';
      line += copyValue(row[columns[i]]);
    }
    text += line + '\n';
  }
  return text;
}

function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  // Rows hold texts, numbers and null (JSON columns are texts already).
  const text = typeof value === 'string' ? value : `${value as number}`;
  return /[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, escapeChar) : text;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escapeChar = (c: string) => ESCAPES[c];
