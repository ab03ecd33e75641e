import type { JSX } from 'preact';
import type { Import } from 'storefront-client';

// What an import came to, as the imports screen shows it: its status, the counts per record
// type, and the bad records by place (at most 100 of them; the total beside).

export const importEnded = (i: Import): boolean => i.status !== 'queued' && i.status !== 'running';

/** 1536 -> "1.5 KB" */
export function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const SAYS: Record<Import['status'], string> = {
  queued: 'Waiting for an earlier import of the project',
  running: 'Importing',
  succeeded: 'Succeeded',
  failed: 'Failed: nothing was written',
  canceled: 'Canceled: nothing was written',
};

export function ImportOutcome({ item }: { item: Import }): JSX.Element {
  const counts = Object.entries(item.counts).filter(([, c]) => c.upserted > 0 || c.deleted > 0);
  const ok = item.status === 'succeeded';
  return (
    <div class="outcome" role="status" aria-live="polite">
      <p>
        <strong class={ok ? 'ok' : item.status === 'failed' ? 'bad' : undefined}>
          {item.dry_run ? 'Dry run' : 'Import'} #{item.id}: {SAYS[item.status]}
        </strong>
        {ok && item.dry_run && ' — nothing was written; apply it to write it.'}
      </p>
      {ok && (
        <p>
          {counts.length === 0
            ? 'No records.'
            : counts
                .map(
                  ([type, c]) =>
                    `${type}: ${c.upserted} ${item.dry_run ? 'to write' : 'written'}, ${c.deleted} deleted`,
                )
                .join(' · ')}
        </p>
      )}
      {item.errors.length > 0 && (
        <>
          <h3>Bad records, by place</h3>
          <ul class="import-errors">
            {item.errors.map((e, i) => (
              <li key={i}>
                <code>{e.place}</code>: {e.message}
              </li>
            ))}
          </ul>
          {item.errors_total > item.errors.length && (
            <p class="muted">and {(item.errors_total - item.errors.length).toLocaleString()} more</p>
          )}
        </>
      )}
    </div>
  );
}
