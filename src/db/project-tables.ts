import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * Every table that holds rows of projects (it has a project_id column), read from the
 * schema itself: removing a project reaches the tables later migrations add, unnamed.
 */
export async function projectTables(db: Kysely<any>): Promise<string[]> {
  const { rows } = isPostgres(db)
    ? await sql<{ name: string }>`select table_name as name from information_schema.columns
        where table_schema = current_schema() and column_name = 'project_id' order by table_name`.execute(db)
    : await sql<{ name: string }>`select m.name as name from sqlite_master m join pragma_table_info(m.name) c
        where m.type = 'table' and c.name = 'project_id' order by m.name`.execute(db);
  return rows.map((r) => r.name);
}
