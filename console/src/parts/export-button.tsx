import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { DownloadLink, Scope } from 'storefront-client';
import { session } from '../session.js';
import { Action } from './action.js';
import { Icon } from './icons.js';
import { Problem } from './problem.js';

// A download of a CSV export (CONTRACT 15: the current filter exported as CSV), saved by the
// browser's own download, streamed to disk: the API makes a one-time link (its scopes checked
// then) and the browser follows it without the key, so a million rows never sit in the tab.

interface Props {
  /** the button's text, e.g. "Export CSV" */
  label: string;
  /** the list exported: names the file */
  list: 'orders' | 'products';
  /** the scope the export needs (none: any key of the project) */
  scope?: Scope;
  link: () => Promise<DownloadLink>;
  /** why this view cannot be exported (the button is then disabled and says so) */
  unavailable?: string;
}

export function ExportButton({ label, list, scope, link, unavailable }: Props): JSX.Element {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [note, setNote] = useState('');
  const filename = `${session.value?.projectId ?? 'export'}-${list}.csv`;
  const run = async () => {
    setBusy(true);
    setError(undefined);
    setNote('');
    try {
      const { path } = await link();
      const anchor = document.createElement('a');
      anchor.href = path;
      anchor.download = filename;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setNote(`${filename}: saving through the browser’s downloads`);
    } catch (e) {
      setError(e);
    }
    setBusy(false);
  };
  const why = unavailable ? `${list}-export-why` : undefined;
  const content = (
    <>
      <Icon name="download" /> {label}
    </>
  );
  return (
    <span class="export">
      {scope ? (
        <Action
          scope={scope}
          busy={busy}
          disabled={Boolean(unavailable)}
          aria-describedby={why}
          onClick={() => void run()}
        >
          {content}
        </Action>
      ) : (
        <button
          type="button"
          disabled={busy || Boolean(unavailable)}
          aria-busy={busy ? 'true' : undefined}
          aria-describedby={why}
          onClick={() => void run()}
        >
          {content}
        </button>
      )}
      {unavailable && (
        <span class="muted" id={why}>
          {unavailable}
        </span>
      )}
      <span role="status" class="saved">
        {note}
      </span>
      <Problem error={error} />
    </span>
  );
}
