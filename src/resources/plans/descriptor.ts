import type { ResourceDescriptor } from '../descriptor.js';
import { deletePlans } from './delete.js';
import { plansForFeed } from './feed.js';
import { PlanRecord } from './record.js';
import { findPlans } from './repository.js';
import { planRows } from './rows.js';

export const plansDescriptor: ResourceDescriptor<PlanRecord> = {
  kind: 'plans',
  type: 'plan',
  record: PlanRecord,
  children: [{ table: 'plan_prices', parent: 'plan_id', ownIds: true }],
  presentForFeed: plansForFeed,
  deleteRecords: deletePlans,
  toRows: planRows,
  // A project has a handful of plans: the export reads them in one go.
  exportPage: async (db, projectId, after) => (after === 0 ? findPlans(db, projectId, {}) : []),
};
