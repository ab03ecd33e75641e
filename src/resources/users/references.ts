import type { ReferenceCheck } from '../descriptor.js';

/** Every subscription names a price of the plan it names. */
export async function checkUserReferences(c: ReferenceCheck): Promise<void> {
  const bad = await c.db
    .selectFrom('subscriptions as s')
    .leftJoin('plan_prices as pp', (j) =>
      j
        .onRef('pp.project_id', '=', 's.project_id')
        .onRef('pp.id', '=', 's.price_id')
        .onRef('pp.plan_id', '=', 's.plan_id'),
    )
    .select(['s.user_id', 's.position', 's.plan_id', 's.price_id'])
    .where('s.project_id', '=', c.projectId)
    .where('pp.id', 'is', null)
    .limit(c.limit)
    .execute();
  for (const s of bad) {
    if (c.refused('plans', s.plan_id)) continue;
    c.problemAt(
      s.user_id,
      `subscriptions[${s.position}]`,
      `refers to plan ${s.plan_id} with price ${s.price_id}, which does not exist`,
    );
  }
}
