import type { Selectable } from 'kysely';
import type { PlanPriceTable, PlanTable } from '../../db/schema.js';
import type { Plan } from './schemas.js';

export type PlanRow = Selectable<PlanTable>;
export type PriceRow = Pick<
  Selectable<PlanPriceTable>,
  'id' | 'plan_id' | 'amount' | 'currency' | 'interval' | 'interval_count' | 'trial_days'
>;

/** A plan as the API and an export show it, with its prices (in the order given). */
export function presentPlan(row: PlanRow, prices: PriceRow[]): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    prices: prices.map(({ plan_id: _, ...price }) => price),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
