import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Viewer } from '../descriptor.js';
import { findPlans } from './repository.js';

/**
 * Plans by id, as the plans list shows them: active ones only, unless the viewer sees every
 * status. A plan that is deactivated, archived or deleted leaves the list, and the feed shows
 * it as a `delete` (GET …/plans/<id> still answers it, in any status).
 */
export async function plansByIds(db: Kysely<Database>, viewer: Viewer, ids: number[]): Promise<Map<number, unknown>> {
  const plans = await findPlans(db, viewer.projectId, { onlyActive: !viewer.everyStatus, ids });
  return new Map(plans.map((p) => [p.id, p]));
}
