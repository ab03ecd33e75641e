import type { JSX } from 'preact';
import type { OrderUpdate } from 'storefront-client';
import type { Change } from '../order-fields.js';
import { Action } from './action.js';
import { AskFirst } from './ask-first.js';

// One order change as a button (the detail's quick changes, the list's bulk bar): those that
// hide or destroy ask first, naming what they act on ("order #12", "3 orders").

export function ChangeButton(props: {
  change: Change;
  subject: string;
  busy: boolean;
  disabled?: boolean;
  onChange: (change: OrderUpdate) => void;
}): JSX.Element {
  const { change: c, subject } = props;
  const run = () => props.onChange(c.change);
  if (!c.asks || Object.values(c.change).includes(false))
    return (
      <Action scope="orders:write" busy={props.busy} disabled={props.disabled} onClick={run}>
        {c.label}
      </Action>
    );
  const verb = c.label.toLowerCase();
  return (
    <AskFirst
      scope="orders:write"
      busy={props.busy}
      disabled={props.disabled}
      question={`${c.label} ${subject}?`}
      yes={`Yes, ${verb} ${subject}`}
      onYes={run}
    >
      {c.label}
    </AskFirst>
  );
}
