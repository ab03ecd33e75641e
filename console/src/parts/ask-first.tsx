import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Scope } from 'storefront-client';
import { Action } from './action.js';

// An action that hides or destroys, asked in place rather than with window.confirm (which a
// screen reader announces poorly and a test cannot see): the button opens a question whose
// confirming button takes the focus; "Keep it" gives the focus back to the first button.

interface Props {
  scope: Scope;
  busy: boolean;
  disabled?: boolean;
  /** the button's text, e.g. "Cancel" */
  children: ComponentChildren;
  /** the question, e.g. "Cancel order #12?" */
  question: string;
  /** the confirming button's text, e.g. "Yes, cancel order #12" */
  yes: string;
  onYes: () => void;
}

export function AskFirst(props: Props): JSX.Element {
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLSpanElement>(null);
  const opener = useRef<HTMLSpanElement>(null);
  const focusIn = (holder: HTMLSpanElement | null) => holder?.querySelector('button')?.focus();
  useEffect(() => {
    if (asking) focusIn(yes.current);
  }, [asking]);
  if (!asking)
    return (
      <span ref={opener}>
        <Action scope={props.scope} busy={props.busy} disabled={props.disabled} onClick={() => setAsking(true)}>
          {props.children}
        </Action>
      </span>
    );
  return (
    <span class="confirm" role="group" aria-label={props.question}>
      <span class="question">{props.question}</span>{' '}
      <span ref={yes}>
        <Action
          scope={props.scope}
          busy={props.busy}
          class="danger"
          onClick={() => {
            setAsking(false);
            props.onYes();
          }}
        >
          {props.yes}
        </Action>
      </span>{' '}
      <button type="button" onClick={() => (setAsking(false), requestAnimationFrame(() => focusIn(opener.current)))}>
        Keep it
      </button>
    </span>
  );
}
