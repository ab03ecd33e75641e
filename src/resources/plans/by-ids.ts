import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FeedReader } from '../descriptor.js';
import { findPlans } from './repository.js';

/**
 * Plans of the change feed, as the plans list shows them: active ones only. A plan that is
 * deactivated, archived or deleted leaves the list, and the feed shows it as a `delete`
 * (GET …/plans/<id> still answers it, in any status).
 */
export async function plansForFeed(
  db: Kysely<Database>,
  reader: FeedReader,
  ids: number[],
): Promise<Map<number, unknown>> {
  const plans = await findPlans(db, reader.projectId, { onlyActive: true, ids });
  return new Map(plans.map((p) => [p.id, p]));
}
