import { randomBytes } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type { WriteContext } from './write-project.js';

// The project row itself, as a write saves it: an import's first line, `project create`, and
// `generate` creating its project.

/**
 * Creates the project, or gives an existing one the new name and currency, in a write of the
 * project (src/writes/), which has bumped an existing project's data_version. A new one starts
 * at version 1, so that the change log's seq (its data_version) of its first write is above
 * the feed's "from the beginning", 0. Every product shows the currency: a new one changes them
 * all.
 */
export async function saveProject(ctx: WriteContext, p: { id: string; name: string; currency: string }): Promise<void> {
  const stored = await ctx.db.selectFrom('projects').select('currency').where('id', '=', p.id).executeTakeFirst();
  const t = Math.floor(Date.now() / 1000);
  await ctx.db
    .insertInto('projects')
    .values({ ...p, created_at: t, updated_at: t, data_version: 1, incarnation: newIncarnation() })
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({ name: p.name, currency: p.currency, updated_at: t, ...bumpIfCreatedMeanwhile(ctx) }),
    )
    .execute();
  if (stored && stored.currency !== p.currency) await ctx.changedAllProducts();
}

/**
 * Creates the project, which must not exist (the admin API, `storefront project create`):
 * false, and nothing written, when a project has this id, even one created meanwhile by a
 * write that has not committed yet (the insert waits for it, then finds the id taken).
 */
export async function createProject(
  ctx: WriteContext,
  p: { id: string; name: string; currency: string },
): Promise<{ created_at: number; incarnation: string } | undefined> {
  if (ctx.versionBefore !== undefined) return undefined;
  const t = Math.floor(Date.now() / 1000);
  const made = await ctx.db
    .insertInto('projects')
    .values({ ...p, created_at: t, updated_at: t, data_version: 1, incarnation: newIncarnation() })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning(['created_at', 'incarnation'])
    .executeTakeFirst();
  return made && { created_at: Number(made.created_at), incarnation: made.incarnation };
}

/**
 * Creates the project with these values when it is missing (`storefront generate`); an
 * existing one keeps its own.
 */
export async function ensureProject(
  ctx: WriteContext,
  p: { id: string; name: string; currency: string },
): Promise<void> {
  const t = Math.floor(Date.now() / 1000);
  const bump = bumpIfCreatedMeanwhile(ctx);
  await ctx.db
    .insertInto('projects')
    .values({ ...p, created_at: t, updated_at: t, data_version: 1, incarnation: newIncarnation() })
    .onConflict((oc) => (bump.data_version ? oc.column('id').doUpdateSet(bump) : oc.column('id').doNothing()))
    .execute();
}

/**
 * A new life of a project (migration 019): 64 random bits, so that no two lives of one id, made
 * by any processes at any time, share the keys of the caches and cursors built on it.
 */
export function newIncarnation(): string {
  return randomBytes(8).toString('hex');
}

/**
 * A write that found no project bumped nothing. If another write created it meanwhile (its
 * insert waited for that one's commit), this write must still take the next version, or its
 * changes would share the other's seq and a reader past it would miss them.
 */
function bumpIfCreatedMeanwhile(ctx: WriteContext): { data_version?: RawBuilder<number> } {
  return ctx.versionBefore === undefined ? { data_version: sql<number>`projects.data_version + 1` } : {};
}
