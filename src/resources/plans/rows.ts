import type { Insertable } from 'kysely';
import type { PlanPriceTable, PlanTable } from '../../db/schema.js';
import { type RecordRows, type RowContext, recordTimes } from '../descriptor.js';
import type { PlanRecord } from './record.js';

/**
 * The plan's row and its prices' rows. A price without an id keeps `id: undefined` here:
 * the import gives it the next free price id when it writes the batch (resource.ts, ownIds).
 */
export function planRows(p: PlanRecord, id: number, ctx: RowContext): RecordRows {
  const pid = ctx.projectId;
  const { created_at, updated_at } = recordTimes(p, ctx);
  const row: Insertable<PlanTable> & { id: number } = {
    project_id: ctx.projectId,
    id,
    name: p.name,
    description: p.description ?? '',
    status: p.status ?? 'active',
    created_at,
    updated_at,
  };
  const prices: (Omit<Insertable<PlanPriceTable>, 'id'> & { id: number | undefined })[] = (p.prices ?? []).map((x) => ({
    project_id: pid,
    id: x.id,
    plan_id: id,
    amount: x.amount,
    currency: x.currency ?? ctx.currency,
    interval: x.interval,
    interval_count: x.interval_count ?? 1,
    trial_days: x.trial_days ?? 0,
  }));
  return { row, children: { plan_prices: prices } };
}
