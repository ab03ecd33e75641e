import type { Kysely } from 'kysely';
import { idsAfter } from '../db/by-id.js';
import type { Database } from '../db/schema.js';
import type { Viewer } from '../resources/descriptor.js';
import { projectRecord } from '../resources/projects/record.js';
import { findProject } from '../resources/projects/repository.js';
import { RESOURCES } from '../resources/registry.js';
import { type Emit, emitTo } from './snapshot-stream.js';

// `storefront export <project>` and `GET …/exports/project.ndjson`: the project's data in the
// import format (docs/API.md, "Import format"), written as it is read (pages of ids on the
// primary key), so a project of millions of products exports in bounded memory. `json`: one
// document, each record on a line of its own; `ndjson`: one record a line with its `type`,
// the project first. Each resource presents its own records (presentByIds in
// src/resources/*/by-ids.ts), in the record form. The caller runs it in one snapshot
// (Reads.longSnapshot), so that the records agree with each other.

const PAGE = 1000;

export const EXPORT_FORMATS = ['json', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export class ExportError extends Error {}

export async function exportProject(
  db: Kysely<Database>,
  projectId: string,
  out: Emit | NodeJS.WritableStream,
  format: ExportFormat = 'json',
): Promise<void> {
  const emit = typeof out === 'function' ? out : emitTo(out);
  const project = await findProject(db, projectId);
  if (!project) throw new ExportError(`project "${projectId}" not found`);
  const ndjson = format === 'ndjson';
  const viewer: Viewer = {
    projectId,
    currency: project.currency,
    includeHidden: true,
    everyStatus: true,
    form: 'record',
  };
  const head = JSON.stringify(projectRecord(project));
  await emit(ndjson ? `{"type":"project",${head.slice(1)}\n` : `{"project":${head}`);
  for (const resource of RESOURCES) {
    if (!ndjson) await emit(`,\n"${resource.kind}":[`);
    const typed = `{"type":${JSON.stringify(resource.type)},`;
    let after = 0;
    let first = true;
    for (;;) {
      const ids = await idsAfter(db, resource.kind, projectId, after, PAGE);
      if (ids.length === 0) break;
      const records = await resource.presentByIds(db, viewer, ids);
      let text = '';
      for (const id of ids) {
        const record = records.get(id);
        if (record === undefined) continue; // deleted since its id was read
        const json = JSON.stringify(record);
        text += ndjson ? `${typed}${json.slice(1)}\n` : `${first ? '\n' : ',\n'}${json}`;
        first = false;
      }
      await emit(text);
      after = ids[ids.length - 1];
    }
    if (!ndjson) await emit(first ? ']' : '\n]');
  }
  if (!ndjson) await emit('}\n');
}
