import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { WebhookDelivery, WebhookEndpoint } from 'storefront-client';
import { when } from '../format.js';
import { Action } from '../parts/action.js';
import { ShownOnce } from '../parts/copy-button.js';
import { Problem } from '../parts/problem.js';
import { useAction } from '../parts/use-action.js';
import { useLoad } from '../parts/use-load.js';
import { place, setQuery } from '../router.js';
import { api } from '../session.js';
import { WebhookCreateForm } from './webhook-create.js';

// Webhook endpoints, added with their secret shown once; the chosen one's deliveries with every attempt; replay a message, enable
// an endpoint a 410 disabled, roll its secret (the new one shown once), delete one (asked twice).

export function Webhooks(): JSX.Element {
  const endpoints = useLoad(() => api().webhooks.list(), []);
  const chosen = Number(place.value.query.get('endpoint') ?? endpoints.data?.data[0]?.id ?? 0);
  const [secret, setSecret] = useState<{ heading: string; secret: string } | undefined>();
  const { busy, error, note, act } = useAction(endpoints.reload);

  return (
    <>
      <h1 id="main-heading" tabIndex={-1}>
        Webhooks
      </h1>
      <Problem error={error ?? endpoints.error} />
      {note && (
        <p class="saved" role="status">
          {note}
        </p>
      )}
      {secret && (
        <ShownOnce
          heading={secret.heading}
          secret={secret.secret}
          copyLabel="Copy the secret"
          onDone={() => setSecret(undefined)}
        />
      )}
      <WebhookCreateForm
        busy={busy}
        onCreate={(body, form) =>
          void act(async () => {
            const made = await api().webhooks.create(body);
            const heading = `Signing secret of endpoint ${made.id}: copy it now, it is not shown again`;
            setSecret({ heading, secret: made.secret });
            form.reset();
            setQuery({ endpoint: String(made.id) }, true);
            return `Endpoint ${made.id} added.`;
          })
        }
      />
      {endpoints.data?.data.length === 0 && <p>No endpoints yet.</p>}
      <ul class="endpoints" aria-label="Endpoints">
        {endpoints.data?.data.map((e) => (
          <EndpointItem
            key={e.id}
            endpoint={e}
            chosen={e.id === chosen}
            busy={busy}
            onEnable={() => void act(async () => (await api().webhooks.enable(e.id), `Endpoint ${e.id} enabled.`))}
            onRoll={() =>
              void act(async () => {
                const rolled = await api().webhooks.rollSecret(e.id, {});
                const heading = `New signing secret of endpoint ${e.id}: copy it now, it is not shown again`;
                setSecret({ heading, secret: rolled.secret });
                return `Secret of endpoint ${e.id} rolled; the old one signs for 24 hours more.`;
              })
            }
            onDelete={() =>
              void act(async () => {
                await api().webhooks.delete(e.id);
                if (e.id === chosen) setQuery({ endpoint: undefined }, true);
                return `Endpoint ${e.id} deleted.`;
              })
            }
          />
        ))}
      </ul>
      {chosen > 0 && <Deliveries endpoint={chosen} busy={busy} act={act} />}
    </>
  );
}

function EndpointItem(props: {
  endpoint: WebhookEndpoint;
  chosen: boolean;
  busy: boolean;
  onEnable: () => void;
  onRoll: () => void;
  onDelete: () => void;
}): JSX.Element {
  const { endpoint: e } = props;
  const [confirming, setConfirming] = useState(false);
  return (
    <li class={`card${props.chosen ? ' chosen' : ''}`}>
      <p>
        <strong>{e.url}</strong> <span class="muted">id {e.id}</span>
      </p>
      <p class="muted">
        {e.events ? e.events.join(', ') : 'every event'} · created {when(e.created_at)}
        {e.previous_secret_until && ` · previous secret signs until ${when(e.previous_secret_until)}`}
      </p>
      {e.disabled_at && (
        <p class="bad">
          Disabled {when(e.disabled_at)}: {e.disabled_reason}
        </p>
      )}
      <div class="buttons">
        <button
          type="button"
          onClick={() => setQuery({ endpoint: String(e.id) })}
          aria-pressed={props.chosen}
          aria-label={`Show the deliveries of endpoint ${e.id}`}
        >
          Deliveries
        </button>
        {e.disabled_at && (
          <Action scope="webhooks:manage" busy={props.busy} onClick={props.onEnable}>
            Enable
          </Action>
        )}
        <Action
          scope="webhooks:manage"
          busy={props.busy}
          onClick={props.onRoll}
          aria-label={`Roll secret of endpoint ${e.id}`}
        >
          Roll secret
        </Action>
        {confirming ? (
          <span role="group" aria-label={`Delete endpoint ${e.id}?`} class="confirm">
            <Action scope="webhooks:manage" busy={props.busy} class="danger" onClick={props.onDelete}>
              Delete endpoint {e.id} and its deliveries
            </Action>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <Action
            scope="webhooks:manage"
            busy={props.busy}
            onClick={() => setConfirming(true)}
            aria-label={`Delete endpoint ${e.id}`}
          >
            Delete
          </Action>
        )}
      </div>
    </li>
  );
}

function Deliveries({
  endpoint,
  busy,
  act,
}: {
  endpoint: number;
  busy: boolean;
  act: (work: () => Promise<string | void>) => Promise<void>;
}): JSX.Element {
  const list = useLoad(() => api().webhooks.deliveries(endpoint), [endpoint]);
  const replay = (d: WebhookDelivery) =>
    void act(async () => {
      await api().webhooks.replay(d.message_id);
      list.reload();
      return `Message ${d.message_id} sent again.`;
    });
  return (
    <section aria-labelledby="deliveries-h">
      <h2 id="deliveries-h">
        Deliveries to endpoint {endpoint}{' '}
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </h2>
      <Problem error={list.error} />
      {list.data?.data.length === 0 && <p>No deliveries yet.</p>}
      <ul class="deliveries">
        {list.data?.data.map((d) => (
          <li key={d.message_id} class="card">
            <p>
              <span class={`tag delivery-${d.status}`}>{d.status}</span> <strong>{d.type}</strong>{' '}
              <code>{d.message_id}</code> <span class="muted">{when(d.created_at)}</span>
              {d.next_attempt_at && <span class="muted"> · next attempt {when(d.next_attempt_at)}</span>}
            </p>
            <details>
              <summary>
                {d.attempts.length} attempt{d.attempts.length === 1 ? '' : 's'}
              </summary>
              <ol class="attempts">
                {d.attempts.map((a, i) => (
                  <li key={i}>
                    {when(a.attempted_at)}: {a.status ?? 'no answer'} in {a.duration_ms} ms
                    {a.error && <span class="bad"> · {a.error}</span>}
                    {a.response && <pre>{a.response}</pre>}
                  </li>
                ))}
              </ol>
            </details>
            <Action
              scope="webhooks:manage"
              busy={busy}
              onClick={() => replay(d)}
              aria-label={`Replay message ${d.message_id}`}
            >
              Replay
            </Action>
          </li>
        ))}
      </ul>
    </section>
  );
}
