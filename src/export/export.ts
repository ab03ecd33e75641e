import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { idsAfter } from '../db/by-id.js';
import type { Database } from '../db/schema.js';
import type { Viewer } from '../resources/descriptor.js';
import { projectRecord } from '../resources/projects/record.js';
import { findProject } from '../resources/projects/repository.js';
import { RESOURCES } from '../resources/registry.js';

// `storefront export <project>`: the project's data as a JSON document in the import format,
// written as it is read (pages of ids on the primary key), so a project of millions of
// products exports in bounded memory. Each record sits on a line of its own. Each resource
// presents its own records (presentByIds in src/resources/*/by-ids.ts), in the record form.

const PAGE = 1000;

export class ExportError extends Error {}

export async function exportProject(db: Kysely<Database>, projectId: string, out: Writable): Promise<void> {
  const project = await findProject(db, projectId);
  if (!project) throw new ExportError(`project "${projectId}" not found`);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const viewer: Viewer = {
    projectId,
    currency: project.currency,
    includeHidden: true,
    everyStatus: true,
    form: 'record',
  };
  await write(`{"project":${JSON.stringify(projectRecord(project))}`);
  for (const resource of RESOURCES) {
    await write(`,\n"${resource.kind}":[`);
    let after = 0;
    let first = true;
    for (;;) {
      const ids = await idsAfter(db, resource.kind, projectId, after, PAGE);
      if (ids.length === 0) break;
      const records = await resource.presentByIds(db, viewer, ids);
      for (const id of ids) {
        const record = records.get(id);
        if (record === undefined) continue; // deleted since its id was read
        await write(`${first ? '\n' : ',\n'}${JSON.stringify(record)}`);
        first = false;
      }
      after = ids[ids.length - 1];
    }
    await write(first ? ']' : '\n]');
  }
  await write('}\n');
}
