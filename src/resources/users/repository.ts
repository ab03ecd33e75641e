import type { Kysely } from 'kysely';
import { rowById } from '../../db/by-id.js';
import type { Reads } from '../../db/reads.js';
import type { Database } from '../../db/schema.js';
import type { SubscriptionRow, UserRow } from './present.js';

/** One page of a project's users, newest first, with their total and subscriptions: one snapshot. */
export async function listUsers(
  reads: Reads,
  projectId: string,
  page: number,
  perpage: number,
): Promise<{ rows: UserRow[]; total: number; subscriptions: Map<number, SubscriptionRow[]> }> {
  return reads.snapshot(async (db) => {
    const { rows, total } = await usersPage(db, projectId, page, perpage);
    const subscriptions = await subscriptionsOf(
      db,
      projectId,
      rows.map((r) => r.id),
    );
    return { rows, total, subscriptions };
  });
}

/** A user and its subscriptions, read by primary key; undefined when there is no such user. */
export async function getUser(
  reads: Reads,
  projectId: string,
  id: number,
): Promise<{ row: UserRow; subscriptions: SubscriptionRow[] } | undefined> {
  const row = await findUser(reads.point, projectId, id);
  if (!row) return undefined;
  const subscriptions = await subscriptionsOf(reads.point, projectId, [id]);
  return { row, subscriptions: subscriptions.get(id) ?? [] };
}

/** One page of a project's users, newest first; walks the users_by_created index. */
async function usersPage(
  db: Kysely<Database>,
  projectId: string,
  page: number,
  perpage: number,
): Promise<{ rows: UserRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('users')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(perpage)
      .offset((page - 1) * perpage)
      .execute(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function findUser(db: Kysely<Database>, projectId: string, id: number): Promise<UserRow | undefined> {
  return rowById(db, 'users', projectId, id);
}

/** Subscriptions of each user, in stored position order (one query for a whole page). */
export async function subscriptionsOf(
  db: Kysely<Database>,
  projectId: string,
  userIds: number[],
): Promise<Map<number, SubscriptionRow[]>> {
  const out = new Map<number, SubscriptionRow[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('position')
    .execute();
  for (const r of rows) out.get(r.user_id)?.push(r);
  return out;
}
