import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Scope } from 'storefront-client';
import { session } from '../session.js';
import { Action } from './action.js';
import { Icon } from './icons.js';
import { Problem } from './problem.js';

// A download of a CSV export (CONTRACT 15: the current filter exported as CSV). The client
// streams the file; the browser is handed it as a Blob URL under the name the server gives it
// (`<project>-orders.csv`, src/resources/exports/routes.ts). The client answers the stream
// only, so the name is made here the same way rather than read from Content-Disposition.

interface Props {
  /** the button's text, e.g. "Export CSV" */
  label: string;
  /** the list exported: names the file */
  list: 'orders' | 'products';
  /** the scope the export needs (none: any key of the project) */
  scope?: Scope;
  start: () => Promise<ReadableStream<Uint8Array>>;
}

export function ExportButton({ label, list, scope, start }: Props): JSX.Element {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [note, setNote] = useState('');
  const filename = `${session.value?.projectId ?? 'export'}-${list}.csv`;
  const run = async () => {
    setBusy(true);
    setError(undefined);
    setNote('');
    try {
      const bytes = await new Response(await start()).arrayBuffer();
      const url = URL.createObjectURL(new Blob([bytes], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = filename;
      document.body.append(link);
      link.click();
      link.remove();
      // The download has taken the URL once the click has been handled.
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      setNote(`${filename} downloaded (${bytes.byteLength.toLocaleString()} bytes)`);
    } catch (e) {
      setError(e);
    }
    setBusy(false);
  };
  const content = (
    <>
      <Icon name="download" /> {label}
    </>
  );
  return (
    <span class="export">
      {scope ? (
        <Action scope={scope} busy={busy} onClick={() => void run()}>
          {content}
        </Action>
      ) : (
        <button type="button" disabled={busy} aria-busy={busy ? 'true' : undefined} onClick={() => void run()}>
          {content}
        </button>
      )}
      <span role="status" class="saved">
        {note}
      </span>
      <Problem error={error} />
    </span>
  );
}
