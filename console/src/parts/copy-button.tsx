import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import { Icon } from './icons.js';

// Copies a secret shown once. The clipboard API needs a secure context (https or localhost);
// elsewhere the text is selected for the operator to copy by hand.

export function CopyButton({ text, label }: { text: string; label: string }): JSX.Element {
  const [done, setDone] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone('Copied');
    } catch {
      setDone('Select the text and copy it by hand');
    }
  };
  return (
    <span class="copy">
      <button type="button" onClick={() => void copy()} aria-label={label}>
        <Icon name="copy" /> Copy
      </button>
      <span role="status">{done}</span>
    </span>
  );
}

/** A secret shown this once (a new key, a webhook's signing secret), with its copy button. */
export function ShownOnce(props: {
  heading: ComponentChildren;
  secret: string;
  copyLabel: string;
  onDone: () => void;
}): JSX.Element {
  return (
    <section class="secret" role="status" aria-labelledby="secret-h">
      <h2 id="secret-h">{props.heading}</h2>
      <p>
        <code class="secret-text" tabIndex={0}>
          {props.secret}
        </code>
      </p>
      <CopyButton text={props.secret} label={props.copyLabel} />{' '}
      <button type="button" onClick={props.onDone}>
        I have stored it
      </button>
    </section>
  );
}
