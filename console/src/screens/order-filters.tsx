import type { JSX } from 'preact';
import { field, submitted } from '../format.js';
import { FILTERS, FULFILLMENT, PAYMENT } from '../order-fields.js';
import { words } from '../format.js';
import { href, navigate } from '../router.js';

// Every filter of SPEC 4.5, written to the address on submit (so Back steps through views,
// and the address can be bookmarked). Dates are typed as days in the browser's time zone and
// kept as the API's unix seconds (created_after and created_before are exclusive).

function dayOf(seconds: string | null): string {
  if (!seconds) return '';
  const d = new Date(Number(seconds) * 1000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function secondsOf(day: string, endOfDay: boolean): string | undefined {
  if (!day) return undefined;
  const [y, m, d] = day.split('-').map(Number);
  const start = new Date(y, m - 1, d);
  // "from the 3rd": after the last second of the 2nd; "until the 3rd": before the 4th.
  if (endOfDay) start.setDate(start.getDate() + 1);
  return String(Math.floor(start.getTime() / 1000) - (endOfDay ? 0 : 1));
}

export function OrderFilters({ params }: { params: URLSearchParams }): JSX.Element {
  const submit = (event: SubmitEvent) => {
    const { form } = submitted(event);
    const text = (name: string) => field(form, name).trim() || undefined;
    navigate(
      href('/orders', {
        payment_status: text('payment_status'),
        fulfillment_status: text('fulfillment_status'),
        is_canceled: text('is_canceled'),
        is_archived: text('is_archived'),
        customer_email: text('customer_email'),
        created_after: secondsOf(field(form, 'from'), false),
        created_before: secondsOf(field(form, 'until'), true),
        perpage: text('perpage'),
      }),
    );
  };
  const choice = (name: string, label: string, values: string[], any = 'any') => (
    <label>
      {label}
      <select name={name}>
        <option value="">{any}</option>
        {values.map((v) => (
          <option key={v} value={v} selected={v === params.get(name)}>
            {words(v)}
          </option>
        ))}
      </select>
    </label>
  );
  // On a phone the filters start folded, so that the first screen shows orders, not fields.
  const set = FILTERS.filter((f) => f !== 'page' && params.get(f)).length;
  const wide = typeof matchMedia === 'undefined' || matchMedia('(min-width: 761px)').matches;
  return (
    <details class="filter-box" open={wide} key={params.toString()}>
      <summary>Filters{set > 0 ? ` (${set} set)` : ''}</summary>
      <form class="filters" onSubmit={submit} aria-label="Filter orders">
        {choice('payment_status', 'Payment', PAYMENT)}
        {choice('fulfillment_status', 'Fulfillment', FULFILLMENT)}
        {choice('is_canceled', 'Canceled', ['false', 'true'], 'either')}
        {choice('is_archived', 'Archived', ['false', 'true'], 'either')}
        <label class="wide">
          Customer email
          <input name="customer_email" type="email" defaultValue={params.get('customer_email') ?? ''} />
        </label>
        <label>
          Placed from
          <input
            name="from"
            type="date"
            defaultValue={dayOf(params.get('created_after') && String(Number(params.get('created_after')) + 1))}
          />
        </label>
        <label>
          Placed until
          <input
            name="until"
            type="date"
            defaultValue={dayOf(params.get('created_before') && String(Number(params.get('created_before')) - 1))}
          />
        </label>
        {choice('perpage', 'Per page', ['50', '100'], '20')}
        <button type="submit" class="primary">
          Apply filters
        </button>
      </form>
    </details>
  );
}
