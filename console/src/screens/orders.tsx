import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Order, OrderUpdate } from 'storefront-client';
import { formatMoney } from '../money.js';
import { when, words } from '../format.js';
import { CHANGES, describe, orderQuery } from '../order-fields.js';
import { Conflict, changeListed } from '../order-writes.js';
import { ChangeButton } from '../parts/change-button.js';
import { ExportButton } from '../parts/export-button.js';
import { Link } from '../parts/link.js';
import { ListTable } from '../parts/list-table.js';
import { Pager } from '../parts/pager.js';
import { Problem } from '../parts/problem.js';
import { useAction } from '../parts/use-action.js';
import { useLoad } from '../parts/use-load.js';
import { href, place, setQuery } from '../router.js';
import { api } from '../session.js';
import { OrderFilters } from './order-filters.js';
import { SavedViews } from '../parts/saved-views.js';

// The orders list: the filters of SPEC 4.5 in the address, totals and pages from the API,
// and several orders changed at once, each with its own result.

type Outcome = { ok: true; text: string } | { ok: false; text: string };

export function Orders(): JSX.Element {
  const params = place.value.query;
  const query = orderQuery(params);
  const key = params.toString();
  const list = useLoad(() => api().orders.list(query), [key]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [outcomes, setOutcomes] = useState<Map<number, Outcome>>(new Map());
  const { busy, act } = useAction(list.reload);
  const rows = list.data?.data ?? [];
  // The export takes the list's filters without its paging: every matching order.
  const { page: _page, perpage: _perpage, ...filters } = query;

  const applyAll = (change: OrderUpdate) =>
    act(async () => {
      setOutcomes(
        await changeEach(
          rows.filter((o) => selected.has(o.id)),
          change,
        ),
      );
      setSelected(new Set());
    });

  return (
    <>
      <h1 id="main-heading" tabIndex={-1}>
        Orders
      </h1>
      <OrderFilters params={params} />
      <SavedViews screen="/orders" />
      <Problem error={list.error} />
      {list.data && (
        <div class="summary">
          <p aria-live="polite">
            <strong>{list.data.meta.total.toLocaleString()}</strong> orders match
          </p>
          <ExportButton
            label="Export CSV"
            list="orders"
            scope="orders:read"
            link={() => api().exports.ordersLink(filters)}
          />
        </div>
      )}
      <div class="bulk" role="group" aria-label="Change the selected orders">
        <span>{selected.size} selected</span>
        {CHANGES.map((c) => (
          <ChangeButton
            key={c.label}
            change={c}
            subject={`${selected.size} order${selected.size === 1 ? '' : 's'}`}
            disabled={selected.size === 0}
            busy={busy}
            onChange={(change) => void applyAll(change)}
          />
        ))}
      </div>
      <Outcomes outcomes={outcomes} />
      <div class="table-wrap" aria-busy={list.loading ? 'true' : 'false'}>
        <OrdersTable
          rows={rows}
          loaded={Boolean(list.data)}
          params={params}
          selected={selected}
          onSelect={setSelected}
        />
      </div>
      {list.data && <Pager meta={list.data.meta} label="Orders" />}
    </>
  );
}

/** One change made to each chosen order, each with its own result. */
async function changeEach(chosen: Order[], change: OrderUpdate): Promise<Map<number, Outcome>> {
  const results = await Promise.all(
    chosen.map(async (order): Promise<[number, Outcome]> => {
      try {
        await changeListed(order, change);
        return [order.id, { ok: true, text: `Saved: ${describe(change)}` }];
      } catch (error) {
        if (error instanceof Conflict)
          return [order.id, { ok: false, text: 'Not saved: changed by someone else since the list was loaded' }];
        return [order.id, { ok: false, text: `Not saved: ${error instanceof Error ? error.message : String(error)}` }];
      }
    }),
  );
  return new Map(results);
}

/** The results of the last change, one an order. */
function Outcomes({ outcomes }: { outcomes: Map<number, Outcome> }): JSX.Element | null {
  if (outcomes.size === 0) return null;
  return (
    <section class="outcomes" aria-label="Results of the last change" aria-live="polite">
      <h2>Results</h2>
      <ul>
        {[...outcomes].map(([id, o]) => (
          <li key={id} class={o.ok ? 'ok' : 'bad'}>
            Order {id}: {o.text}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The page's orders, each to select for a change. */
function OrdersTable({
  rows,
  loaded,
  params,
  selected,
  onSelect,
}: {
  rows: Order[];
  loaded: boolean;
  params: URLSearchParams;
  selected: Set<number>;
  onSelect: (selected: Set<number>) => void;
}): JSX.Element {
  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelect(next);
  };
  return (
    <ListTable
      caption="Orders, newest first"
      quietCaption
      empty={
        loaded &&
        rows.length === 0 && (
          <>
            No order matches these filters.{' '}
            <button
              type="button"
              class="link"
              onClick={() => setQuery(Object.fromEntries([...params.keys()].map((k) => [k, undefined])))}
            >
              Clear the filters
            </button>
          </>
        )
      }
      columns={[
        {
          label: (
            <input
              type="checkbox"
              aria-label="Select every order on this page"
              checked={rows.length > 0 && rows.every((o) => selected.has(o.id))}
              onChange={(e) => onSelect(e.currentTarget.checked ? new Set(rows.map((o) => o.id)) : new Set())}
            />
          ),
        },
        'Order',
        'Customer',
        { label: 'Total', num: true },
        'Payment',
        'Fulfillment',
        'Placed',
      ]}
    >
      {rows.map((o) => (
        <OrderRow key={o.id} order={o} selected={selected.has(o.id)} onSelect={(on) => toggle(o.id, on)} />
      ))}
    </ListTable>
  );
}

function OrderRow({
  order,
  selected,
  onSelect,
}: {
  order: Order;
  selected: boolean;
  onSelect: (on: boolean) => void;
}): JSX.Element {
  return (
    <tr class={selected ? 'selected' : undefined}>
      <td>
        <input
          type="checkbox"
          aria-label={`Select order ${order.id}`}
          checked={selected}
          onChange={(e) => onSelect(e.currentTarget.checked)}
        />
      </td>
      <td>
        <Link to={href(`/orders/${order.id}`)}>#{order.id}</Link>
        {order.is_canceled && <span class="tag bad">canceled</span>}
        {order.is_archived && <span class="tag">archived</span>}
      </td>
      <td>
        {order.customer_name}
        <div class="muted">{order.customer_email}</div>
      </td>
      <td class="num">{formatMoney(order.total, order.currency)}</td>
      <td>
        <span class={`tag pay-${order.payment_status}`}>{words(order.payment_status)}</span>
      </td>
      <td>
        <span class={`tag ful-${order.fulfillment_status}`}>{words(order.fulfillment_status)}</span>
      </td>
      <td>{when(order.created_at)}</td>
    </tr>
  );
}
