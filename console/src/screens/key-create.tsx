import type { JSX } from 'preact';
import type { KeyCreate, Scope } from 'storefront-client';
import { field, submitted } from '../format.js';
import { Action } from '../parts/action.js';
import { can } from '../session.js';

// A new key: its label, the scopes it grants (none it lacks itself) and when it expires. The
// caller shows the secret the API answers, this once.

const SCOPES: { scope: Scope; says: string }[] = [
  { scope: 'orders:read', says: 'read orders' },
  { scope: 'orders:write', says: 'change orders' },
  { scope: 'users:read', says: 'read users' },
  { scope: 'products:write', says: 'change products' },
  { scope: 'products:read_hidden', says: 'see hidden products' },
  { scope: 'webhooks:manage', says: 'manage webhooks' },
  { scope: 'keys:manage', says: 'manage keys' },
  { scope: 'imports:write', says: 'import data' },
];

export function KeyCreateForm({
  busy,
  onCreate,
}: {
  busy: boolean;
  onCreate: (body: KeyCreate, form: HTMLFormElement) => void;
}): JSX.Element {
  const submit = (event: SubmitEvent) => {
    const { form, element } = submitted(event);
    const days = field(form, 'expires_in_days');
    onCreate(
      {
        label: field(form, 'label').trim(),
        scopes: form.getAll('scopes').map(String) as Scope[],
        ...(days ? { expires_in_days: Number(days) } : {}),
      },
      element,
    );
  };
  return (
    <section class="card" aria-labelledby="new-key-h">
      <h2 id="new-key-h">Create a key</h2>
      <form class="stack" onSubmit={submit}>
        <label>
          Label
          <input name="label" required maxLength={200} placeholder="who or what holds it" />
        </label>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map(({ scope, says }) => (
            <label class="check" key={scope}>
              <input
                type="checkbox"
                name="scopes"
                value={scope}
                disabled={!can(scope)}
                defaultChecked={scope === 'orders:read'}
              />
              <code>{scope}</code> {says}
              {!can(scope) && <span class="scope-note"> (this key lacks it, so cannot grant it)</span>}
            </label>
          ))}
        </fieldset>
        <label>
          Expires
          <select name="expires_in_days">
            <option value="">never</option>
            <option value="1">in a day</option>
            <option value="30">in 30 days</option>
            <option value="90" selected>
              in 90 days
            </option>
            <option value="365">in a year</option>
          </select>
        </label>
        <Action scope="keys:manage" type="submit" class="primary" busy={busy}>
          Create the key
        </Action>
      </form>
    </section>
  );
}
