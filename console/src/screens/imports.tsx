import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { Import, ImportFormat } from 'storefront-client';
import { when } from '../format.js';
import { Action } from '../parts/action.js';
import { ImportOutcome, importEnded, sizeOf } from '../parts/import-outcome.js';
import { ListTable } from '../parts/list-table.js';
import { Problem } from '../parts/problem.js';
import { useLoad } from '../parts/use-load.js';
import { api } from '../session.js';

// Imports (CONTRACT 14, 15): choose a file, check it with a dry run, watch the upload and then
// the import, read the bad records by place or what it would change and its warnings, then
// apply it or cancel; the latest imports below. The
// upload's progress comes from the client's onUploadProgress (XMLHttpRequest in a browser),
// the import's from polling imports.get until it ends.

/** The format of a file by its name; undefined for one the API does not take. */
function formatOf(name: string): ImportFormat | undefined {
  if (/\.json$/i.test(name)) return 'json';
  if (/\.(ndjson|jsonl)$/i.test(name)) return 'ndjson';
  if (/\.csv$/i.test(name)) return 'csv';
  return undefined;
}

interface Upload {
  sent: number;
  total: number | undefined;
}

export function Imports(): JSX.Element {
  const history = useLoad(() => api().imports.list(), []);
  const [file, setFile] = useState<File | undefined>();
  const [upload, setUpload] = useState<Upload | undefined>();
  const [current, setCurrent] = useState<Import | undefined>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  // The file whose dry run found nothing wrong: only that one may be applied.
  const [checked, setChecked] = useState<File | undefined>();
  const stop = useRef<AbortController | undefined>(undefined);
  const picker = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState('');
  const format = file && formatOf(file.name);

  const choose = (event: Event) => {
    const chosen = (event.currentTarget as HTMLInputElement).files?.[0];
    setFile(chosen);
    setNote('');
    setChecked(undefined);
    setCurrent(undefined);
    setUpload(undefined);
    setError(
      chosen && !formatOf(chosen.name) ? new Error(`${chosen.name}: choose a .json, .ndjson or .csv file`) : undefined,
    );
  };

  const run = async (dryRun: boolean) => {
    if (!file || !format) return;
    setBusy(true);
    setError(undefined);
    setNote('');
    setCurrent(undefined);
    setUpload({ sent: 0, total: file.size });
    stop.current = new AbortController();
    try {
      const created = await api().imports.create(file, {
        format,
        dryRun,
        onUploadProgress: (sent, total) => setUpload({ sent, total }),
        signal: stop.current.signal,
      });
      setCurrent(created);
      const done = importEnded(created)
        ? created
        : await api().imports.wait(created.id, {
            intervalMs: 400,
            onProgress: setCurrent,
            signal: stop.current.signal,
          });
      setCurrent(done);
      if (dryRun && done.status === 'succeeded') setChecked(file);
      if (!dryRun && done.status === 'succeeded') setChecked(undefined);
    } catch (e) {
      setError(e);
    }
    stop.current = undefined;
    setBusy(false);
    history.reload();
  };

  const cancel = async () => {
    if (!current) {
      stop.current?.abort();
      return;
    }
    try {
      // The poll sees the import canceled at its next look and ends.
      setCurrent(await api().imports.cancel(current.id));
    } catch (e) {
      setError(e);
    }
  };

  // Nothing was written by the dry run: forgetting it and the chosen file is all there is to undo.
  const discard = () => {
    if (picker.current) picker.current.value = '';
    setFile(undefined);
    setChecked(undefined);
    setCurrent(undefined);
    setUpload(undefined);
    setError(undefined);
    setNote('Canceled: nothing was imported. Choose a file to start again.');
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
              onChange={choose}
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
    </>
  );
}
