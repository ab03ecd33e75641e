import { useRef, useState } from 'preact/hooks';
import type { Import, ImportFormat } from 'storefront-client';
import { importEnded } from '../parts/import-outcome.js';
import { api } from '../session.js';

// The imports screen's one import at a time (imports.tsx draws it): the chosen file, its
// upload's progress (the client's onUploadProgress, XMLHttpRequest in a browser), the import's
// (polling imports.get until it ends), and the file a dry run found nothing wrong with.

/** The format of a file by its name; undefined for one the API does not take. */
export function formatOf(name: string): ImportFormat | undefined {
  if (/\.json$/i.test(name)) return 'json';
  if (/\.(ndjson|jsonl)$/i.test(name)) return 'ndjson';
  if (/\.csv$/i.test(name)) return 'csv';
  return undefined;
}

export interface Upload {
  sent: number;
  total: number | undefined;
}

/** Uploads the file as an import (or a dry run) and follows it until it ends. */
async function runImport(
  file: File,
  options: { format: ImportFormat; dryRun: boolean; signal: AbortSignal },
  shown: { upload: (upload: Upload) => void; current: (item: Import) => void },
): Promise<Import> {
  const created = await api().imports.create(file, {
    ...options,
    onUploadProgress: (sent, total) => shown.upload({ sent, total }),
  });
  shown.current(created);
  if (importEnded(created)) return created;
  return api().imports.wait(created.id, { intervalMs: 400, onProgress: shown.current, signal: options.signal });
}

export function useImport(afterRun: () => void) {
  const [file, setFile] = useState<File | undefined>();
  const [upload, setUpload] = useState<Upload | undefined>();
  const [current, setCurrent] = useState<Import | undefined>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  // The file whose dry run found nothing wrong: only that one may be applied.
  const [checked, setChecked] = useState<File | undefined>();
  const stop = useRef<AbortController | undefined>(undefined);
  const [note, setNote] = useState('');
  const format = file && formatOf(file.name);

  /** A new file (or none): whatever was shown of the last one goes. */
  const choose = (chosen: File | undefined, problem?: unknown, said = '') => {
    setFile(chosen);
    setNote(said);
    setChecked(undefined);
    setCurrent(undefined);
    setUpload(undefined);
    setError(problem);
  };

  // Not useAction: the history is reloaded after a failed run too, and the error is also set
  // by the choice of a file and by a cancel.
  const run = async (dryRun: boolean) => {
    if (!file || !format) return;
    setBusy(true);
    setError(undefined);
    setNote('');
    setCurrent(undefined);
    setUpload({ sent: 0, total: file.size });
    stop.current = new AbortController();
    try {
      const options = { format, dryRun, signal: stop.current.signal };
      const done = await runImport(file, options, { upload: setUpload, current: setCurrent });
      setCurrent(done);
      if (done.status === 'succeeded') setChecked(dryRun ? file : undefined);
    } catch (e) {
      setError(e);
    }
    stop.current = undefined;
    setBusy(false);
    afterRun();
  };

  const cancel = async () => {
    if (!current) return stop.current?.abort();
    try {
      // The poll sees the import canceled at its next look and ends.
      setCurrent(await api().imports.cancel(current.id));
    } catch (e) {
      setError(e);
    }
  };

  return { file, format, upload, current, error, busy, checked, note, choose, run, cancel };
}
