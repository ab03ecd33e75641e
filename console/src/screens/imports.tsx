import type { JSX } from 'preact';
import { useRef } from 'preact/hooks';
import type { Import } from 'storefront-client';
import { when } from '../format.js';
import { Action } from '../parts/action.js';
import { ImportOutcome, importEnded, sizeOf } from '../parts/import-outcome.js';
import { ListTable } from '../parts/list-table.js';
import { Problem } from '../parts/problem.js';
import { type Loaded, useLoad } from '../parts/use-load.js';
import { type Upload, formatOf, useImport } from './import-run.js';
import { api } from '../session.js';

// Imports (CONTRACT 14, 15): choose a file, check it with a dry run, watch the upload and then
// the import, read the bad records by place or what it would change and its warnings, then
// apply it or cancel; the latest imports below. The run itself is import-run.ts.

export function Imports(): JSX.Element {
  const history = useLoad(() => api().imports.list(), []);
  const { file, format, upload, current, error, busy, checked, note, choose, run, cancel } = useImport(history.reload);
  const picker = useRef<HTMLInputElement>(null);

  const onChoose = (event: Event) => {
    const chosen = (event.currentTarget as HTMLInputElement).files?.[0];
    const wrong = chosen && !formatOf(chosen.name);
    choose(chosen, wrong ? new Error(`${chosen.name}: choose a .json, .ndjson or .csv file`) : undefined);
  };
  // Nothing was written by the dry run: forgetting it and the chosen file is all there is to undo.
  const discard = () => {
    if (picker.current) picker.current.value = '';
    choose(undefined, undefined, 'Canceled: nothing was imported. Choose a file to start again.');
  };

  const running = busy && (current === undefined || !importEnded(current));
  return (
    <>
      <h1 id="main-heading" tabIndex={-1}>
        Imports
      </h1>
      <section class="card" aria-labelledby="upload-h">
        <h2 id="upload-h">Import a file</h2>
        <p class="muted">
          A JSON document or NDJSON lines in the import format (docs/API.md, “Import format”), or products as CSV (as
          the products export writes it). One import is all or nothing: check it with a dry run first, then apply it.
        </p>
        <div class="filters">
          <label>
            File to import
            <input
              type="file"
              ref={picker}
              accept=".json,.ndjson,.jsonl,.csv,application/json,application/x-ndjson,text/csv"
              onChange={onChoose}
            />
          </label>
          <Action scope="imports:write" busy={busy} disabled={!format} onClick={() => void run(true)}>
            Check it (dry run)
          </Action>
          {running && (
            <button type="button" class="danger" onClick={() => void cancel()}>
              Cancel the import
            </button>
          )}
        </div>
        <Problem error={error} />
        <p role="status" class="saved">
          {note}
        </p>
        <ImportProgress upload={upload} current={current} />
        {current && <ImportOutcome item={current} />}
        {/* After a dry run that found nothing wrong: apply the same file, or drop it. */}
        {file && checked === file && current?.dry_run && (
          <div class="buttons decide" role="group" aria-label="Apply the checked file?">
            <Action scope="imports:write" busy={busy} class="primary" onClick={() => void run(false)}>
              Apply the import
            </Action>
            <button type="button" disabled={busy} onClick={discard}>
              Cancel
            </button>
          </div>
        )}
      </section>
      <ImportHistory history={history} />
    </>
  );
}

/** The upload's progress, then the import's. */
function ImportProgress({ upload, current }: { upload: Upload | undefined; current: Import | undefined }) {
  return (
    <>
      {upload && (
        <div class="progress">
          <label>
            Upload
            <progress max={upload.total ?? 1} value={upload.sent} />
          </label>
          <span>
            {sizeOf(upload.sent)} of {sizeOf(upload.total ?? upload.sent)} sent
          </span>
        </div>
      )}
      {current && (
        <div class="progress">
          <label>
            Import
            <progress max={1} value={current.progress} />
          </label>
          <span>{current.records_read.toLocaleString()} records read</span>
        </div>
      )}
    </>
  );
}

/** The latest imports, newest first. */
function ImportHistory({ history }: { history: Loaded<{ data: Import[] }> }): JSX.Element {
  return (
    <section aria-labelledby="history-h">
      <h2 id="history-h">
        Latest imports{' '}
        <button type="button" onClick={history.reload}>
          Refresh
        </button>
      </h2>
      <Problem error={history.error} />
      <div
        class="table-wrap"
        tabIndex={0}
        role="region"
        aria-label="The latest imports (scrolls sideways on a narrow screen)"
      >
        <ListTable
          caption="The latest imports, newest first"
          quietCaption
          columns={[
            'Import',
            'Started',
            'Kind',
            'Status',
            { label: 'Records', num: true },
            { label: 'Errors', num: true },
            { label: 'Warnings', num: true },
          ]}
        >
          {history.data?.data.map((i) => (
            <tr key={i.id}>
              <td>
                #{i.id} <span class="muted">{i.format}</span>
              </td>
              <td>{when(i.started_at ?? i.created_at)}</td>
              <td>{i.dry_run ? 'dry run' : 'import'}</td>
              <td>
                <span class={`tag import-${i.status}`}>{i.status}</span>
              </td>
              <td class="num">{i.records_read.toLocaleString()}</td>
              <td class="num">{i.errors_total.toLocaleString()}</td>
              <td class="num">{i.warnings_total.toLocaleString()}</td>
            </tr>
          ))}
        </ListTable>
      </div>
    </section>
  );
}
