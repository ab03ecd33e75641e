import type { ButtonHTMLAttributes, ComponentChildren, JSX } from 'preact';
import type { Scope } from 'storefront-client';
import { can } from '../session.js';
import { Icon } from './icons.js';

// A button for something a scope allows. Without the scope it is still there, disabled, and
// says which scope it needs (CONTRACT 15: shown disabled, not hidden behind an error).

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  scope: Scope;
  children: ComponentChildren;
  busy?: boolean;
}

export function Action({ scope, children, busy, disabled, class: className, ...rest }: Props): JSX.Element {
  const allowed = can(scope);
  return (
    <button
      type="button"
      {...rest}
      class={`${(className as string | undefined) ?? ''}${allowed ? '' : ' needs-scope'}`}
      disabled={!allowed || Boolean(disabled) || busy}
      aria-busy={busy ? 'true' : undefined}
      title={allowed ? rest.title : `Needs the scope ${scope}`}
    >
      {children}
      {!allowed && (
        <span class="scope-note">
          <Icon name="lock" size={14} /> needs {scope}
        </span>
      )}
    </button>
  );
}

/** A note for a whole section the key may not use. */
export function NeedsScope({ scope }: { scope: Scope }): JSX.Element {
  return (
    <p class="notice needs-scope" role="note">
      <Icon name="lock" /> This key lacks the scope <code>{scope}</code>: sign in with a key that has it to use this
      part.
    </p>
  );
}
