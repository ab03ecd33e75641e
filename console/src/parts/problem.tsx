import type { JSX } from 'preact';
import { ApiError } from 'storefront-client';
import { messageOf } from '../format.js';
import { Icon } from './icons.js';

// An error as an operator needs it: what the API said, with its field details.

export function Problem({ error }: { error: unknown }): JSX.Element | null {
  if (error === undefined || error === null) return null;
  const details = error instanceof ApiError ? error.details : [];
  return (
    <div class="problem" role="alert">
      <Icon name="alert" />
      <div>
        <p>{messageOf(error)}</p>
        {details.length > 0 && (
          <ul>
            {details.map((d) => (
              <li key={d.field + d.message}>
                <code>{d.field}</code>: {d.message}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
