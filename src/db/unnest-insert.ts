import { type Kysely, sql } from 'kysely';

// Bulk inserts on PostgreSQL: INSERT … SELECT FROM unnest($1::type[], …), one array
// parameter per column whatever the number of rows. A multi-row VALUES list of thousands of
// parameters took PostgreSQL longer to parse and plan than to insert the rows.

/** Column types by table, read once from the catalog (the same in every schema we create). */
const columnTypes = new Map<string, Map<string, string>>();

async function typesOf(db: Kysely<any>, table: string, columns: string[]): Promise<Map<string, string>> {
  let types = columnTypes.get(table);
  if (!types || columns.some((c) => !types!.has(c))) {
    const { rows } = await sql<{ column_name: string; udt_name: string }>`
      select column_name, udt_name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(db);
    types = new Map(rows.map((c) => [c.column_name, c.udt_name]));
    columnTypes.set(table, types);
  }
  return types;
}

/**
 * Inserts the rows (all with the same keys) in statements of up to 5,000 rows. With
 * `upsertOn`, a row whose key exists replaces the stored one's other columns.
 */
export async function unnestInsert(
  db: Kysely<any>,
  table: string,
  rows: Record<string, unknown>[],
  upsertOn?: string[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  const types = await typesOf(db, table, columns);
  const conflict = upsertOn
    ? sql` on conflict (${sql.join(upsertOn.map((c) => sql.ref(c)))}) do update set ${sql.join(
        columns.filter((c) => !upsertOn.includes(c)).map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`),
      )}`
    : sql``;
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    const arrays = columns.map((c) => sql`${chunk.map((r) => r[c])}::${sql.raw(types.get(c)!)}[]`);
    await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) select * from unnest(${sql.join(arrays)})${conflict}`.execute(
      db,
    );
  }
}
