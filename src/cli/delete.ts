import { HANDLE } from '../http/params.js';
import { deleteRecords } from '../writes/delete-records.js';
import type { ResourceDescriptor } from '../resources/descriptor.js';
import { PROJECT_ID } from '../http/schemas.js';
import { findProject } from '../resources/projects/repository.js';
import { RESOURCES, resourceOfType } from '../resources/registry.js';
import { type WriteContext, writeProject } from '../writes/write-project.js';
import { CliError, parse, withStorage } from './context.js';

// `storefront delete <project_id> <type> <id|handle>…`: what deletions in an import do
// (docs/API.md, "Deleting records"), from the command line, in one transaction; an id or
// handle that names nothing is a no-op, and is named in the summary.

const TYPES = RESOURCES.map((r) => r.type).join('|');

export async function deleteCommand(args: string[]): Promise<void> {
  const { values, positionals } = parse('delete', args, {}, ['project_id', TYPES, 'id|handle…']);
  const [projectId, type, ...refs] = positionals;
  const resource = resourceOfType(type);
  if (!resource) throw new CliError(`storefront delete: the type must be one of ${TYPES.replaceAll('|', ', ')}`, 2);
  if (!PROJECT_ID.test(projectId)) throw new CliError(`storefront delete: project "${projectId}" not found`);
  const ids = new Set<number>();
  const handles = new Set<string>();
  for (const ref of refs) {
    if (/^[0-9]+$/.test(ref) && Number(ref) >= 1 && Number.isSafeInteger(Number(ref))) ids.add(Number(ref));
    // A handle is never all digits: `0` or an id past 2^53-1 cannot name anything (exit 2).
    else if (resource.handles && !/^[0-9]+$/.test(ref) && ref.length <= 128 && HANDLE.test(ref)) handles.add(ref);
    else
      throw new CliError(
        `storefront delete: "${ref}" is not a ${resource.type} id${resource.handles ? ' or handle' : ' (a positive integer)'}`,
        2,
      );
  }
  const { deleted, missing } = await withStorage(values, async (storage) => {
    if (!(await findProject(storage.db, projectId)))
      throw new CliError(`storefront delete: project "${projectId}" not found`);
    const write = await writeProject(storage, projectId, (ctx) => deleteNamed(ctx, resource, ids, handles), {
      kind: 'batch',
    });
    return write.value;
  });
  const notFound = missing.length ? ` (not found, nothing to do: ${missing.join(', ')})` : '';
  process.stdout.write(
    `deleted ${deleted} ${deleted === 1 ? resource.type : resource.kind} from ${projectId}${notFound}\n`,
  );
}

/** Deletes the records named by id or handle; those that name nothing are returned as missing. */
async function deleteNamed(
  ctx: WriteContext,
  resource: ResourceDescriptor,
  ids: Set<number>,
  handles: Set<string>,
): Promise<{ deleted: number; missing: string[] }> {
  const missing: string[] = [];
  if (handles.size > 0) {
    const found = await ctx.db
      .selectFrom(resource.kind as 'products')
      .select(['id', 'handle'])
      .where('project_id', '=', ctx.projectId)
      .where('handle', 'in', [...handles])
      .execute();
    const byHandle = new Map(found.map((r) => [r.handle, r.id]));
    for (const h of handles) {
      const id = byHandle.get(h);
      if (id === undefined) missing.push(h);
      else ids.add(id);
    }
  }
  const existing = new Set(
    (
      await ctx.db
        .selectFrom(resource.kind)
        .select('id')
        .where('project_id', '=', ctx.projectId)
        .where('id', 'in', [...ids, 0])
        .execute()
    ).map((r) => Number(r.id)),
  );
  for (const id of ids) if (!existing.has(id)) missing.push(String(id));
  return { deleted: await deleteRecords(ctx, resource, [...existing]), missing };
}
