import type { JSX } from 'preact';
import type { Client, FulfillmentStatus, Import, PaymentStatus } from 'storefront-client';
import { dayLabel, when } from '../format.js';
import { Link } from '../parts/link.js';
import { Problem } from '../parts/problem.js';
import { useLoad } from '../parts/use-load.js';
import { href } from '../router.js';
import { api, can } from '../session.js';

// What needs doing today, from list totals only (meta.total of perpage=1 lists): never a
// whole list in the browser, so a shop of a million orders loads as fast as the demo.

const WAITING: { label: string; query: { payment_status?: PaymentStatus; fulfillment_status?: FulfillmentStatus } }[] =
  [
    { label: 'Paid, not yet shipped', query: { payment_status: 'paid', fulfillment_status: 'unfulfilled' } },
    { label: 'Payment pending', query: { payment_status: 'pending' } },
    { label: 'Payment failed', query: { payment_status: 'failed' } },
    { label: 'Ready for pickup', query: { fulfillment_status: 'ready_for_pickup' } },
    { label: 'Returned', query: { fulfillment_status: 'returned' } },
  ];

const DAYS = 14;

async function total(client: Client, query: object): Promise<number> {
  return (await client.orders.list({ ...query, perpage: 1, is_canceled: false })).meta.total;
}

/** Orders per day for the last 14 days: one small request a day (created_after/before are exclusive). */
async function perDay(client: Client): Promise<{ day: Date; count: number }[]> {
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  const days = Array.from({ length: DAYS }, (_, i) => {
    const day = new Date(today);
    day.setDate(today.getDate() - (DAYS - 1 - i));
    return day;
  });
  return Promise.all(
    days.map(async (day) => {
      const start = Math.floor(day.getTime() / 1000);
      const next = new Date(day);
      next.setDate(day.getDate() + 1);
      const end = Math.floor(next.getTime() / 1000);
      const { meta } = await client.orders.list({ created_after: start - 1, created_before: end, perpage: 1 });
      return { day, count: meta.total };
    }),
  );
}

async function failedDeliveries(client: Client): Promise<{ endpoint: number; url: string; failed: number }[]> {
  const { data } = await client.webhooks.list();
  return Promise.all(
    data.map(async (e) => ({
      endpoint: e.id,
      url: e.url,
      failed: (await client.webhooks.deliveries(e.id)).data.filter((d) => d.status === 'failed').length,
    })),
  );
}

/** The newest import that was meant to write (not a dry run), if it failed: nothing of it was written. */
async function failedImport(client: Client): Promise<Import | undefined> {
  const latest = (await client.imports.list()).data.find((i) => !i.dry_run);
  return latest?.status === 'failed' ? latest : undefined;
}

export function Home(): JSX.Element {
  const orders = can('orders:read');
  const hooks = can('webhooks:manage');
  const waiting = useLoad(async () => (orders ? Promise.all(WAITING.map((w) => total(api(), w.query))) : []), []);
  const chart = useLoad(async () => (orders ? perDay(api()) : []), []);
  const failed = useLoad(async () => (hooks ? failedDeliveries(api()) : []), []);
  const imports = can('imports:write');
  const badImport = useLoad(async () => (imports ? failedImport(api()) : undefined), []);
  return (
    <>
      <h1 id="main-heading" tabIndex={-1}>
        Home
      </h1>
      <section aria-labelledby="waiting-h" class="card">
        <h2 id="waiting-h">Orders waiting</h2>
        {!orders && <p class="muted">Needs the scope orders:read.</p>}
        <Problem error={waiting.error} />
        <ul class="tiles">
          {waiting.data?.map((count, i) => (
            <li key={WAITING[i].label}>
              <Link to={href('/orders', WAITING[i].query)}>
                <strong>{count.toLocaleString()}</strong> {WAITING[i].label}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="chart-h" class="card">
        <h2 id="chart-h">Orders per day, last {DAYS} days</h2>
        <Problem error={chart.error} />
        {chart.data && chart.data.length > 0 && <Bars days={chart.data} />}
      </section>
      <section aria-labelledby="attention-h" class="card">
        <h2 id="attention-h">Needs attention</h2>
        {!hooks && <p class="muted">Webhook deliveries need the scope webhooks:manage.</p>}
        {!imports && <p class="muted">Imports need the scope imports:write.</p>}
        <Problem error={failed.error ?? badImport.error} />
        {badImport.data && (
          <p>
            <Link to={href('/imports')}>
              The latest import (#{badImport.data.id}, {when(badImport.data.created_at)}) failed with{' '}
              {badImport.data.errors_total} error{badImport.data.errors_total === 1 ? '' : 's'}: nothing of it was
              written
            </Link>
          </p>
        )}
        {failed.data && (
          <ul>
            {failed.data.filter((f) => f.failed > 0).length === 0 && hooks && <li>No failed webhook deliveries.</li>}
            {failed.data
              .filter((f) => f.failed > 0)
              .map((f) => (
                <li key={f.endpoint}>
                  <Link to={href('/webhooks', { endpoint: String(f.endpoint) })}>
                    {f.failed} failed deliveries to {f.url}
                  </Link>
                </li>
              ))}
          </ul>
        )}
      </section>
    </>
  );
}

function Bars({ days }: { days: { day: Date; count: number }[] }): JSX.Element {
  const max = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  return (
    <figure class="bars">
      <ol aria-label={`${total} orders in ${days.length} days`}>
        {days.map(({ day, count }) => (
          <li key={day.getTime()} title={`${dayLabel(day)}: ${count}`}>
            <span class="bar" style={{ height: `${(count / max) * 100}%` }} />
            <span class="count">{count}</span>
            <span class="day">{dayLabel(day)}</span>
          </li>
        ))}
      </ol>
      <figcaption>
        {total.toLocaleString()} orders in the last {days.length} days, by the day they were placed
      </figcaption>
    </figure>
  );
}
