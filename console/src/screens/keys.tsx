import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Key, KeyCreate } from 'storefront-client';
import { when } from '../format.js';
import { Action } from '../parts/action.js';
import { ShownOnce } from '../parts/copy-button.js';
import { ListTable } from '../parts/list-table.js';
import { Problem } from '../parts/problem.js';
import { useAction } from '../parts/use-action.js';
import { useLoad } from '../parts/use-load.js';
import { KeyCreateForm } from './key-create.js';
import { api, session } from '../session.js';

// The project's keys: create one with scopes and an expiry (its secret shown this once, with a
// copy button), roll one with an overlap, revoke one. A key can grant no scope it lacks.

export function Keys(): JSX.Element {
  const keys = useLoad(() => api().keys.list(), []);
  const [secret, setSecret] = useState<{ label: string; key: string; what: string } | undefined>();
  const { busy, error, act } = useAction(keys.reload);
  const me = session.value?.current.id;

  const create = (body: KeyCreate, form: HTMLFormElement) =>
    act(async () => {
      const made = await api().keys.create(body);
      setSecret({ label: made.label, key: made.key, what: 'New key' });
      form.reset();
    });

  return (
    <>
      <h1 id="main-heading" tabIndex={-1}>
        Keys
      </h1>
      {secret && (
        <ShownOnce
          heading={`${secret.what} “${secret.label}”: copy it now, it is not shown again`}
          secret={secret.key}
          copyLabel="Copy the key"
          onDone={() => setSecret(undefined)}
        />
      )}
      <Problem error={error ?? keys.error} />
      <KeyCreateForm busy={busy} onCreate={(body, form) => void create(body, form)} />
      <div class="table-wrap">
        <ListTable
          caption="Keys that still work"
          columns={['Key', 'Scopes', 'Expires', 'Last used', { label: 'Actions', hidden: true }]}
        >
          {keys.data?.data.map((k) => (
            <KeyRow
              key={k.id}
              item={k}
              mine={k.id === me}
              busy={busy}
              onRoll={(overlap) =>
                void act(async () => {
                  const rolled = await api().keys.roll(k.id, { overlap_seconds: overlap });
                  setSecret({ label: rolled.label, key: rolled.key, what: 'Rolled key' });
                })
              }
              onRevoke={() => void act(async () => void (await api().keys.revoke(k.id)))}
            />
          ))}
        </ListTable>
      </div>
    </>
  );
}

function KeyRow({
  item,
  mine,
  busy,
  onRoll,
  onRevoke,
}: {
  item: Key;
  mine: boolean;
  busy: boolean;
  onRoll: (overlapSeconds: number) => void;
  onRevoke: () => void;
}): JSX.Element {
  const [confirming, setConfirming] = useState(false);
  const [overlap, setOverlap] = useState('86400');
  return (
    <tr>
      <td>
        {item.label || <span class="muted">no label</span>} <span class="muted">id {item.id}</span>
        {mine && <span class="tag">this session</span>}
      </td>
      <td>{item.scopes.join(', ')}</td>
      <td>{when(item.expires_at)}</td>
      <td>{when(item.last_used_at)}</td>
      <td class="actions">
        <label>
          <span class="sr-only">Overlap of the roll for key {item.id}</span>
          <select value={overlap} onChange={(e) => setOverlap(e.currentTarget.value)}>
            <option value="0">old stops now</option>
            <option value="3600">old works 1 h</option>
            <option value="86400">old works 24 h</option>
          </select>
        </label>
        <Action
          scope="keys:manage"
          busy={busy}
          onClick={() => onRoll(Number(overlap))}
          aria-label={`Roll key ${item.id}`}
        >
          Roll
        </Action>
        {confirming ? (
          <>
            <Action
              scope="keys:manage"
              class="danger"
              busy={busy}
              onClick={onRevoke}
              aria-label={`Confirm: revoke key ${item.id}`}
            >
              Revoke now{mine ? ' (ends this session)' : ''}
            </Action>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <Action
            scope="keys:manage"
            busy={busy}
            onClick={() => setConfirming(true)}
            aria-label={`Revoke key ${item.id}`}
          >
            Revoke
          </Action>
        )}
      </td>
    </tr>
  );
}
