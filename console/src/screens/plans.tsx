import type { JSX } from 'preact';
import { formatMoney } from '../money.js';
import { Problem } from '../parts/problem.js';
import { useLoad } from '../parts/use-load.js';
import { api } from '../session.js';

// Every plan, whatever its status (fetch_inactive=true takes any key of the project).

export function Plans(): JSX.Element {
  const plans = useLoad(() => api().plans.list({ fetch_inactive: true }), []);
  return (
    <>
      <h1 id="main-heading" tabIndex={-1}>
        Plans
      </h1>
      <Problem error={plans.error} />
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Plans (scrolls sideways on a narrow screen)">
        <table class="list">
          <caption class="sr-only">Plans of every status</caption>
          <thead>
            <tr>
              <th scope="col">Plan</th>
              <th scope="col">Status</th>
              <th scope="col">Prices</th>
            </tr>
          </thead>
          <tbody>
            {plans.data?.data.map((p) => (
              <tr key={p.id}>
                <td>
                  {p.name} <span class="muted">id {p.id}</span>
                  {p.description && <div class="muted">{p.description}</div>}
                </td>
                <td>
                  <span class={`tag plan-${p.status}`}>{p.status}</span>
                </td>
                <td>
                  {p.prices.length === 0
                    ? 'none'
                    : p.prices
                        .map(
                          (x) =>
                            `${formatMoney(x.amount, x.currency)} ${x.interval === 'one_time' ? 'once' : `every ${x.interval_count > 1 ? `${x.interval_count} ` : ''}${x.interval}${x.interval_count > 1 ? 's' : ''}`}${x.trial_days ? `, ${x.trial_days}-day trial` : ''}`,
                        )
                        .join(' · ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
