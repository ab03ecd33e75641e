import type { JSX } from 'preact';
import { field, submitted } from '../format.js';
import { useState } from 'preact/hooks';
import { ApiError } from 'storefront-client';
import { Problem } from '../parts/problem.js';
import { useAction } from '../parts/use-action.js';
import { signIn } from '../session.js';

// A project id and a key. The key is checked by reading GET /keys/current, which also tells
// its scopes; it is kept in sessionStorage only, for this tab. A good key with a mistyped
// project id is answered with the key's own project (docs/API.md, "Keys"): offered here.

export function SignIn(): JSX.Element {
  const { busy, error, act } = useAction();
  const [key, setKey] = useState('');
  const attempt = (project: string, key: string) => {
    setKey(key);
    // On success the console leaves this screen for the signed-in one.
    return act(() => signIn(project, key));
  };
  const submit = (event: SubmitEvent) => {
    const { form } = submitted(event);
    void attempt(field(form, 'project').trim(), field(form, 'key').trim());
  };
  const owner = ownerNamed(error);
  return (
    <main class="sign-in">
      <form onSubmit={submit} aria-labelledby="main-heading">
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
        {owner && (
          <button type="button" onClick={() => void attempt(owner, key)}>
            Sign in to project {owner} with this key
          </button>
        )}
      </form>
    </main>
  );
}

/** The key's own project, when the API refused it as another project's key. */
function ownerNamed(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 401) return undefined;
  return /belongs to project "([^"]+)"/.exec(error.message)?.[1];
}
