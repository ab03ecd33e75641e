import type { Selectable } from 'kysely';
import type { SubscriptionTable, UserTable } from '../../db/schema.js';
import type { Subscription, User } from './schemas.js';

export type UserRow = Selectable<UserTable>;
export type SubscriptionRow = Selectable<SubscriptionTable>;

export function presentUser(row: UserRow, subscriptions: SubscriptionRow[]): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    email_verified: row.email_verified === 1,
    created_at: row.created_at,
    last_login_at: row.last_login_at,
    subscriptions: subscriptions.map(presentSubscription),
  };
}

function presentSubscription(row: SubscriptionRow): Subscription {
  return {
    plan_id: row.plan_id,
    price_id: row.price_id,
    status: row.status,
    started_at: row.started_at,
    canceled_at: row.canceled_at,
  };
}
