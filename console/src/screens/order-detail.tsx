import type { JSX } from 'preact';
import { field, submitted } from '../format.js';
import { useState } from 'preact/hooks';
import type { Order, OrderUpdate } from 'storefront-client';
import { when, words } from '../format.js';
import { formatMoney } from '../money.js';
import { CHANGES, FULFILLMENT, PAYMENT, changeFor, describe, differences } from '../order-fields.js';
import { Conflict, type Versioned, changeOrder, readOrder } from '../order-writes.js';
import { Action } from '../parts/action.js';
import { ChangeButton } from '../parts/change-button.js';
import { Link } from '../parts/link.js';
import { ListTable } from '../parts/list-table.js';
import { Problem } from '../parts/problem.js';
import { useAction } from '../parts/use-action.js';
import { useLoad } from '../parts/use-load.js';
import { href } from '../router.js';

// One order, and its status and flags changed with If-Match: when someone else changed it
// first, nothing is saved and the newer order is shown beside what was tried. Cancel and
// Archive ask first and, once set, are offered undone (Un-cancel, Unarchive).

export function OrderDetail({ id }: { id: number }): JSX.Element {
  const loaded = useLoad(() => readOrder(id), [id]);
  const [current, setCurrent] = useState<Versioned | undefined>();
  const [conflict, setConflict] = useState<Conflicted | undefined>();
  const [unchanged, setUnchanged] = useState(false);
  const { busy, error, note, act } = useAction();
  const shown = current ?? loaded.data;

  const apply = async (change: OrderUpdate) => {
    if (!shown) return;
    setUnchanged(false);
    setConflict(undefined);
    // A conflict is shown with the newer order; any other refusal is the action's error.
    await act(async () => {
      try {
        setCurrent(await changeOrder(id, change, shown.etag));
        return `Saved: ${describe(change)}.`;
      } catch (e) {
        if (!(e instanceof Conflict)) throw e;
        setConflict({ tried: change, seen: shown, newer: e.newer });
      }
    });
  };
  const submitForm = (event: SubmitEvent) => {
    const change = shown && formChange(submitted(event).form, shown.order);
    if (!change || Object.keys(change).length === 0) setUnchanged(true);
    else void apply(change);
  };
  const saved = unchanged ? 'Nothing to save: no field was changed.' : note;

  return (
    <>
      <p>
        <Link to={href('/orders')}>← All orders</Link>
      </p>
      <h1 id="main-heading" tabIndex={-1}>
        Order #{id}
      </h1>
      <Problem error={loaded.error ?? error} />
      {conflict && (
        <ConflictNotice
          conflict={conflict}
          busy={busy}
          onRetry={() => {
            setCurrent(conflict.newer);
            void apply(conflict.tried);
          }}
          onKeep={() => {
            setCurrent(conflict.newer);
            setConflict(undefined);
          }}
        />
      )}
      {saved && (
        <p class="saved" role="status">
          {saved}
        </p>
      )}
      {shown && (
        <OrderView
          key={shown.etag + (conflict ? 'c' : '')}
          versioned={conflict?.newer ?? shown}
          busy={busy}
          onQuick={(c) => void apply(c)}
          onSubmit={submitForm}
        />
      )}
    </>
  );
}

type Conflicted = { tried: OrderUpdate; seen: Versioned; newer: Versioned };

/** The fields of the change form that differ from the order. */
function formChange(form: FormData, order: Order): OrderUpdate {
  const change: OrderUpdate = {};
  const payment = field(form, 'payment_status');
  const fulfillment = field(form, 'fulfillment_status');
  const delivery = field(form, 'delivery_information');
  if (payment !== order.payment_status) change.payment_status = payment as OrderUpdate['payment_status'];
  if (fulfillment !== order.fulfillment_status)
    change.fulfillment_status = fulfillment as OrderUpdate['fulfillment_status'];
  if (delivery !== order.delivery_information) change.delivery_information = delivery;
  return change;
}

/** A change refused because the order changed first: what changed, and the two ways on. */
function ConflictNotice({
  conflict,
  busy,
  onRetry,
  onKeep,
}: {
  conflict: Conflicted;
  busy: boolean;
  onRetry: () => void;
  onKeep: () => void;
}): JSX.Element {
  return (
    <section class="conflict" role="alert" aria-labelledby="conflict-h">
      <h2 id="conflict-h">Not saved: this order changed since you opened it</h2>
      <p>
        You tried <strong>{describe(conflict.tried)}</strong>, but someone else changed the order first (updated{' '}
        {when(conflict.newer.order.updated_at)}). What changed:
      </p>
      <ul>
        {differences(conflict.seen.order, conflict.newer.order).map((d) => (
          <li key={d}>{d}</li>
        ))}
      </ul>
      <p>The newer order is shown below. Check it, then apply your change again if it still holds.</p>
      <Action scope="orders:write" busy={busy} onClick={onRetry}>
        Apply my change to the newer order
      </Action>{' '}
      <button type="button" onClick={onKeep}>
        Keep the newer order
      </button>
    </section>
  );
}

function OrderView({
  versioned,
  busy,
  onQuick,
  onSubmit,
}: {
  versioned: Versioned;
  busy: boolean;
  onQuick: (change: OrderUpdate) => void;
  onSubmit: (event: SubmitEvent) => void;
}): JSX.Element {
  const { order } = versioned;
  return (
    <div class="detail">
      <OrderFacts order={order} />
      <section class="card" aria-labelledby="change-h">
        <h2 id="change-h">Change</h2>
        <div class="quick" role="group" aria-label="Quick changes">
          {CHANGES.map((c) => (
            <ChangeButton
              key={c.label}
              change={changeFor(c, order)}
              subject={`order #${order.id}`}
              busy={busy}
              onChange={onQuick}
            />
          ))}
        </div>
        <form class="stack" onSubmit={onSubmit}>
          <label>
            Payment status
            <select name="payment_status">
              {PAYMENT.map((p) => (
                <option key={p} value={p} selected={p === order.payment_status}>
                  {words(p)}
                </option>
              ))}
            </select>
          </label>
          <label>
            Fulfillment status
            <select name="fulfillment_status">
              {FULFILLMENT.map((f) => (
                <option key={f} value={f} selected={f === order.fulfillment_status}>
                  {words(f)}
                </option>
              ))}
            </select>
          </label>
          <label>
            Delivery information
            <textarea name="delivery_information" rows={3} defaultValue={order.delivery_information} />
          </label>
          <Action scope="orders:write" type="submit" class="primary" busy={busy}>
            Save changes
          </Action>
        </form>
      </section>
    </div>
  );
}

/** What the order is: its customer, statuses, times and items. */
function OrderFacts({ order }: { order: Order }): JSX.Element {
  return (
    <section class="card" aria-labelledby="order-h">
      <h2 id="order-h">
        {order.customer_name} <span class="muted">{order.customer_email}</span>
      </h2>
      <dl class="facts">
        <dt>Payment</dt>
        <dd data-field="payment_status">{words(order.payment_status)}</dd>
        <dt>Fulfillment</dt>
        <dd data-field="fulfillment_status">{words(order.fulfillment_status)}</dd>
        <dt>Canceled</dt>
        <dd>{order.is_canceled ? 'yes' : 'no'}</dd>
        <dt>Archived</dt>
        <dd>{order.is_archived ? 'yes' : 'no'}</dd>
        <dt>Placed</dt>
        <dd>{when(order.created_at)}</dd>
        <dt>Last changed</dt>
        <dd>{when(order.updated_at)}</dd>
      </dl>
      <ListTable
        caption="Items"
        columns={['Item', { label: 'Quantity', num: true }, { label: 'Price', num: true }]}
        foot={
          <tr>
            <th scope="row" colSpan={2}>
              Total
            </th>
            <td class="num">{formatMoney(order.total, order.currency)}</td>
          </tr>
        }
      >
        {order.items.map((item, i) => (
          <tr key={i}>
            <td>{item.name}</td>
            <td class="num">{item.quantity}</td>
            <td class="num">{formatMoney(item.price, order.currency)}</td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
