import type { Kysely, Selectable } from 'kysely';
import type { Storage } from '../../db/connect.js';
import type { Database, ProjectTable } from '../../db/schema.js';
import { PROJECT_ID } from '../../http/schemas.js';

export const CURRENCY = /^[A-Z]{3}$/;

export type Project = Selectable<ProjectTable>;

export async function findProject(db: Kysely<Database>, id: string): Promise<Project | undefined> {
  if (!PROJECT_ID.test(id)) return undefined;
  return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether the project exists (the admin API's 404 before its other checks). */
export async function hasProject(storage: Pick<Storage, 'db'>, id: string): Promise<boolean> {
  return (await findProject(storage.db, id)) !== undefined;
}

/** The rows of the projects named (a shared read of many requests: reader.ts). */
export async function findProjects(db: Kysely<Database>, ids: string[]): Promise<Project[]> {
  return db.selectFrom('projects').selectAll().where('id', 'in', ids).execute();
}
