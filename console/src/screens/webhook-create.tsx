import type { JSX } from 'preact';
import type { WebhookCreate } from 'storefront-client';
import { field, submitted } from '../format.js';
import { Action } from '../parts/action.js';

// A new webhook endpoint: its address and the events it receives (none ticked: every event).
// The caller shows the signing secret the API answers, this once.

type EventType = NonNullable<WebhookCreate['events']>[number];

const EVENTS: { type: EventType; says: string }[] = [
  { type: 'order.updated', says: 'an order changed' },
  { type: 'order.deleted', says: 'an order deleted' },
  { type: 'product.updated', says: 'a product changed' },
  { type: 'product.deleted', says: 'a product deleted' },
  { type: 'category.changed', says: 'categories changed' },
  { type: 'plan.changed', says: 'a plan changed' },
  { type: 'user.changed', says: 'a user changed' },
  { type: 'import.completed', says: 'an import finished' },
];

export function WebhookCreateForm({
  busy,
  onCreate,
}: {
  busy: boolean;
  onCreate: (body: WebhookCreate, form: HTMLFormElement) => void;
}): JSX.Element {
  const submit = (event: SubmitEvent) => {
    const { form, element } = submitted(event);
    const events = form.getAll('events').map(String) as EventType[];
    onCreate({ url: field(form, 'url').trim(), ...(events.length ? { events } : {}) }, element);
  };
  return (
    <section class="card" aria-labelledby="new-endpoint-h">
      <h2 id="new-endpoint-h">Add an endpoint</h2>
      <form class="stack" onSubmit={submit}>
        <label>
          Address (URL)
          <input name="url" type="url" required placeholder="https://example.com/hooks/storefront" />
        </label>
        <fieldset>
          <legend>Events (none ticked: every event)</legend>
          {EVENTS.map(({ type, says }) => (
            <label class="check" key={type}>
              <input type="checkbox" name="events" value={type} />
              <code>{type}</code> {says}
            </label>
          ))}
        </fieldset>
        <Action scope="webhooks:manage" type="submit" class="primary" busy={busy}>
          Add the endpoint
        </Action>
      </form>
    </section>
  );
}
