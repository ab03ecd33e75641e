import { useState } from 'preact/hooks';

// One action at a time on a screen: busy while it runs, its error kept for a <Problem>, and
// what it said (a note for a status line) kept until the next one. `after` runs on success
// (a reload of the list the action changed).

export interface Acting {
  busy: boolean;
  error: unknown;
  note: string;
  act: (work: () => Promise<string | void>) => Promise<void>;
}

export function useAction(after?: () => void): Acting {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [note, setNote] = useState('');
  const act = async (work: () => Promise<string | void>) => {
    setBusy(true);
    setError(undefined);
    setNote('');
    try {
      setNote((await work()) ?? '');
      after?.();
    } catch (e) {
      setError(e);
    }
    setBusy(false);
  };
  return { busy, error, note, act };
}
