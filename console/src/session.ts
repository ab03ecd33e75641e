import { computed, signal } from '@preact/signals';
import { type Client, type CurrentKey, type Scope, createClient } from 'storefront-client';

// Who is signed in: a project id and a key, kept in sessionStorage only (CONTRACT 15), so
// that a reload keeps the session and closing the tab forgets it. The key's scopes come from
// GET /keys/current at sign-in; every screen asks `can(scope)` before offering an action.

const STORE = 'storefront-console';

export interface Session {
  projectId: string;
  key: string;
  /** the key as the API describes it: label, scopes, expiry */
  current: CurrentKey;
}

export const session = signal<Session | null>(restore());

/** The client for the signed-in project; every API call of the console goes through it. */
export const client = computed<Client | null>(() => {
  const s = session.value;
  return s ? clientFor(s.projectId, s.key) : null;
});

/** The client, for screens that render only when signed in. */
export function api(): Client {
  const c = client.value;
  if (!c) throw new Error('not signed in');
  return c;
}

export function clientFor(projectId: string, key: string): Client {
  return createClient({ baseUrl: location.origin, projectId, apiKey: key, retries: 1, maxRetryWaitMs: 3000 });
}

export function can(scope: Scope): boolean {
  return session.value?.current.scopes.includes(scope) ?? false;
}

/** Checks the key against the API and keeps the session; the API's error is thrown as is. */
export async function signIn(projectId: string, key: string): Promise<void> {
  const current = await clientFor(projectId, key).keys.current();
  const next = { projectId, key, current };
  sessionStorage.setItem(STORE, JSON.stringify(next));
  session.value = next;
}

export function signOut(): void {
  sessionStorage.removeItem(STORE);
  session.value = null;
}

function restore(): Session | null {
  try {
    const text = sessionStorage.getItem(STORE);
    return text ? (JSON.parse(text) as Session) : null;
  } catch {
    return null;
  }
}
