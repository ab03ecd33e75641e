import type { JSX } from 'preact';
import type { Import } from 'storefront-client';
import { ImportChanges } from './import-changes.js';

// What an import came to, as the imports screen shows it: its status, what it changes (by
// record type and field, with the warnings: import-changes.tsx), and the bad records by place
// (at most 100 of them; the total beside).

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
  const ok = item.status === 'succeeded';
  return (
    <div class="outcome">
      <p role="status" aria-live="polite">
        <strong class={ok ? 'ok' : item.status === 'failed' ? 'bad' : undefined}>
          {item.dry_run ? 'Dry run' : 'Import'} #{item.id}: {SAYS[item.status]}
        </strong>
        {ok && item.dry_run && ' — nothing was written yet: read what it would change, then apply it or cancel.'}
      </p>
      {ok && <ImportChanges item={item} />}
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
