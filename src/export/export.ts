import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { projectRecord } from '../resources/projects/record.js';
import { findProject } from '../resources/projects/repository.js';
import { RESOURCES } from '../resources/registry.js';

// `storefront export <project>`: the project's data as a JSON document in the import format,
// written as it is read (pages of rows by id), so a project of millions of products exports
// in bounded memory. Each record sits on a line of its own. Each resource reads and presents
// its own records (exportPage in src/resources/*/descriptor.ts), with the API's presenters.

const PAGE = 1000;

export class ExportError extends Error {}

export async function exportProject(db: Kysely<Database>, projectId: string, out: Writable): Promise<void> {
  const project = await findProject(db, projectId);
  if (!project) throw new ExportError(`project "${projectId}" not found`);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`{"project":${JSON.stringify(projectRecord(project))}`);
  for (const resource of RESOURCES)
    await section(write, resource.kind, (after) => resource.exportPage(db, projectId, after, PAGE));
  await write('}\n');
}

/** Writes `,"name":[…]` page by page; `page(after)` returns the records with id > after. */
async function section(
  write: (t: string) => Promise<void>,
  name: string,
  page: (after: number) => Promise<{ id: number }[]>,
): Promise<void> {
  await write(`,\n"${name}":[`);
  let after = 0;
  let first = true;
  for (;;) {
    const rows = await page(after);
    if (rows.length === 0) break;
    for (const row of rows) {
      await write(`${first ? '\n' : ',\n'}${JSON.stringify(row)}`);
      first = false;
    }
    after = rows[rows.length - 1].id;
  }
  await write(first ? ']' : '\n]');
}
