import type { ResourceDescriptor, RowContext } from '../resources/descriptor.js';
import type { WriteRows } from '../db/bulk-insert.js';
import type { WriteContext } from '../writes/write-project.js';

export interface RecordWriter {
  write(resource: ResourceDescriptor, records: { id: number }[]): Promise<void>;
}

/**
 * Writes records through their resource's own row mapping (each resource's rows.ts, the one
 * the import uses): each record's row, then its parts, and tallies the rows derived from
 * them. Every record carries its id, and so does every part with ids of its own (plan prices).
 */
export function recordWriter(insertAll: WriteRows, ctx: RowContext, unit: WriteContext): RecordWriter {
  return {
    async write(resource, records) {
      const made = records.map((r) => resource.toRows(r as never, r.id, ctx));
      await insertAll(
        resource.kind,
        made.map((m) => m.row),
      );
      for (const child of resource.children)
        await insertAll(
          child.table,
          made.flatMap((m) => m.children[child.table] ?? []),
        );
      // New ids only: nothing stored to take out of the derived rows first.
      await unit.tally(resource)?.add(made);
      await unit.changed(
        resource.type,
        records.map((r) => r.id),
      );
    },
  };
}
