import type { ResourceDescriptor } from '../descriptor.js';
import { deletePlans } from './delete.js';
import { plansByIds } from './by-ids.js';
import { PlanRecord } from './record.js';
import { planRows } from './rows.js';

export const plansDescriptor: ResourceDescriptor<PlanRecord> = {
  kind: 'plans',
  type: 'plan',
  record: PlanRecord,
  children: [{ table: 'plan_prices', parent: 'plan_id', field: 'prices', ownIds: true }],
  presentByIds: plansByIds,
  events: { upsert: 'plan.changed', delete: 'plan.changed' },
  deleteRecords: deletePlans,
  toRows: planRows,
};
