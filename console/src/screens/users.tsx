import type { JSX } from 'preact';
import { when } from '../format.js';
import { Pager } from '../parts/pager.js';
import { Problem } from '../parts/problem.js';
import { useLoad } from '../parts/use-load.js';
import { place } from '../router.js';
import { api } from '../session.js';

// Users, newest first, each with their subscriptions (plan names from the plans of every status).

export function Users(): JSX.Element {
  const params = place.value.query;
  const page = Number(params.get('page') ?? 1);
  const users = useLoad(() => api().users.list({ page, perpage: 20 }), [page]);
  const plans = useLoad(() => api().plans.list({ fetch_inactive: true }), []);
  const planName = (id: number) => plans.data?.data.find((p) => p.id === id)?.name ?? `plan ${id}`;
  return (
    <>
      <h1 id="main-heading" tabIndex={-1}>
        Users
      </h1>
      <Problem error={users.error} />
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Users (scrolls sideways on a narrow screen)">
        <table class="list">
          <caption class="sr-only">Users, newest first</caption>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Joined</th>
              <th scope="col">Subscriptions</th>
            </tr>
          </thead>
          <tbody>
            {users.data?.data.map((u) => (
              <tr key={u.id}>
                <td>
                  {u.name || u.email} {u.email_verified ? '' : <span class="tag">unverified</span>}
                  <div class="muted">{u.email}</div>
                </td>
                <td>{when(u.created_at)}</td>
                <td>
                  {u.subscriptions.length === 0 ? (
                    <span class="muted">none</span>
                  ) : (
                    <ul class="plain">
                      {u.subscriptions.map((s) => (
                        <li key={`${s.plan_id}-${s.price_id}-${s.started_at}`}>
                          {planName(s.plan_id)} <span class={`tag sub-${s.status}`}>{s.status.replace('_', ' ')}</span>{' '}
                          <span class="muted">since {when(s.started_at)}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {users.data && <Pager meta={users.data.meta} label="Users" />}
    </>
  );
}
