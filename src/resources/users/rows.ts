import type { Insertable } from 'kysely';
import type { SubscriptionTable, UserTable } from '../../db/schema.js';
import type { RecordRows, RowContext } from '../descriptor.js';
import type { UserRecord } from './record.js';

export function userRows(u: UserRecord, id: number, ctx: RowContext): RecordRows {
  const pid = ctx.projectId;
  const created_at = u.created_at ?? ctx.now;
  const row: Insertable<UserTable> & { id: number } = {
    project_id: pid,
    id,
    email: u.email,
    name: u.name ?? '',
    email_verified: u.email_verified ? 1 : 0,
    created_at,
    last_login_at: u.last_login_at ?? null,
  };
  const subscriptions: Insertable<SubscriptionTable>[] = (u.subscriptions ?? []).map((s, position) => ({
    project_id: pid,
    user_id: id,
    position,
    plan_id: s.plan_id,
    price_id: s.price_id,
    status: s.status,
    started_at: s.started_at ?? created_at,
    canceled_at: s.canceled_at ?? null,
  }));
  return { row, children: { subscriptions } };
}
