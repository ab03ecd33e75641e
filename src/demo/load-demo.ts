import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { importDocument } from '../import/import.js';
import { createKey } from '../keys/repository.js';
import { DEMO_PROJECT, demoDocument } from './demo-data.js';

/** True when no project exists yet: the moment `npm start` loads the demo. */
export async function isEmpty(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('projects').select('id').limit(1).executeTakeFirst()) === undefined;
}

/** Loads the demo project through the ordinary import and makes a key for it. */
export async function loadDemo(db: Kysely<Database>): Promise<{ projectId: string; key: string }> {
  await importDocument(db, demoDocument());
  const { key } = await createKey({ db }, DEMO_PROJECT.id, 'demo');
  return { projectId: DEMO_PROJECT.id, key };
}
