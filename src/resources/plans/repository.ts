import type { Reads } from '../../db/reads.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { presentPlan } from './present.js';
import type { Plan } from './schemas.js';

/** Plans with their prices; `onlyActive` for the public list, `id` for one plan, `ids` for a page of the feed. */
/** The project's plans as the routes read them: one by id is a point read. */
export function readPlans(reads: Reads, projectId: string, where: Parameters<typeof findPlans>[2]): Promise<Plan[]> {
  return findPlans(where.id === undefined ? reads.general : reads.point, projectId, where);
}

export async function findPlans(
  db: Kysely<Database>,
  projectId: string,
  where: { onlyActive?: boolean; id?: number; ids?: number[] },
): Promise<Plan[]> {
  let q = db.selectFrom('plans').selectAll().where('project_id', '=', projectId);
  if (where.onlyActive) q = q.where('status', '=', 'active');
  if (where.id !== undefined) q = q.where('id', '=', where.id);
  if (where.ids !== undefined) q = q.where('id', 'in', where.ids);
  const plans = await q.orderBy('id').execute();
  if (plans.length === 0) return [];
  const prices = await db
    .selectFrom('plan_prices')
    .select(['id', 'plan_id', 'amount', 'currency', 'interval', 'interval_count', 'trial_days'])
    .where('project_id', '=', projectId)
    .where(
      'plan_id',
      'in',
      plans.map((p) => p.id),
    )
    .orderBy('amount')
    .orderBy('id')
    .execute();
  return plans.map((p) =>
    presentPlan(
      p,
      prices.filter((x) => x.plan_id === p.id),
    ),
  );
}
