import type { JSX } from 'preact';
import { field } from '../format.js';
import { useState } from 'preact/hooks';
import { Problem } from '../parts/problem.js';
import { signIn } from '../session.js';

// A project id and a key. The key is checked by reading GET /keys/current, which also tells
// its scopes; it is kept in sessionStorage only, for this tab.

export function SignIn(): JSX.Element {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      await signIn(field(form, 'project').trim(), field(form, 'key').trim());
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <form onSubmit={(e) => void submit(e)} aria-labelledby="main-heading">
        <h1 id="main-heading" tabIndex={-1}>
          Storefront console
        </h1>
        <p>Sign in with a project id and one of its API keys. The key stays in this tab only.</p>
        <label>
          Project id
          <input name="project" required autoComplete="username" defaultValue="demo" spellcheck={false} />
        </label>
        <label>
          API key
          <input name="key" type="password" required autoComplete="current-password" placeholder="sfk_…" />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Checking the key…' : 'Sign in'}
        </button>
        <Problem error={error} />
      </form>
    </main>
  );
}
