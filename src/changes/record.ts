import { type Kysely, type RawBuilder, sql } from 'kysely';
import { idRows } from '../db/id-rows.js';
import type { Database } from '../db/schema.js';
import type { ChangeAction, ChangeEntry, ChangeType } from './entry.js';
import { brokenSeq } from './ordering.js';

// Writing the change log (migration 008), in the transaction of every change: called by the
// write unit (src/writes/change-set.ts) with what the write declared it changed.
//
// Ordering. Every write transaction first bumps its project's data_version
// (src/db/data-version.ts), which on PostgreSQL locks the project row until commit (SQLite
// has a single writer). The entries of a transaction take that bumped value as their `seq`.
// The writers of one project therefore hold seq values in the order they commit: a writer
// gets N+1 only after the holder of N has committed (its lock is released after its commit
// became visible), so a reader that sees N+1 committed also sees N, and a cursor at N never
// skips a change committed later. A sequence or clock read before commit would not give
// this (PostgreSQL hands out nextval outside transactions): writer A takes 10, writer B
// takes 11 and commits, a reader moves past 11, then A commits 10 behind it.
// (src/changes/ordering.ts breaks it that way on purpose, for the test that proves the
// convergence test can fail.)
//
// The seq is read by the insert itself, `(select data_version from projects …)`, so the
// log costs no extra round trip; the write unit has bumped the version in this transaction
// first, before any write.
//
// Compaction: the row of (project, type, id) is replaced by its record's latest change, so
// the log holds one row per record plus the deletions kept for the retention time.

/** Rows per statement: the ids travel as one array (PostgreSQL) or one JSON text (SQLite). */
const CHUNK = 10_000;

export async function recordChanges(trx: Kysely<Database>, projectId: string, entries: ChangeEntry[]): Promise<void> {
  if (entries.length === 0) return;
  // One row per record: the last entry given for it wins.
  const last = new Map<string, ChangeEntry>();
  for (const e of entries) last.set(`${e.type}:${e.id}`, e);
  const groups = new Map<string, { type: ChangeType; action: ChangeAction; ids: number[] }>();
  for (const e of last.values()) {
    const key = `${e.type}:${e.action}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { type: e.type, action: e.action, ids: [] }));
    group.ids.push(e.id);
  }
  const now = Math.floor(Date.now() / 1000);
  const seq = seqOf(trx, projectId);
  for (const { type, action, ids } of groups.values())
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      await sql`insert into changes (project_id, type, id, seq, action, changed_at)
        select ${text(projectId)}, ${text(type)}, id, ${seq}, ${text(action)}, ${int(now)} from ${idRows(trx, chunk)} where true
        ${UPSERT}`.execute(trx);
    }
}

/**
 * Records an upsert of every record of a table at once: what a change of the project's
 * currency does to every product (the API shows it on each), in one statement.
 */
export async function recordAllChanged(
  trx: Kysely<Database>,
  projectId: string,
  type: ChangeType,
  table: 'products',
): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  await sql`insert into changes (project_id, type, id, seq, action, changed_at)
    select project_id, ${text(type)}, id, ${seqOf(trx, projectId)}, 'upsert', ${int(now)} from ${sql.table(table)}
    where project_id = ${projectId}
    ${UPSERT}`.execute(trx);
}

const UPSERT = sql`on conflict (project_id, type, id) do update
  set seq = excluded.seq, action = excluded.action, changed_at = excluded.changed_at`;

// Typed, for PostgreSQL: a parameter in a select list is text unless cast.
const text = (value: string) => sql`cast(${value} as text)`;
const int = (value: number) => sql`cast(${value} as bigint)`;

function seqOf(trx: Kysely<Database>, projectId: string): RawBuilder<unknown> {
  const broken = brokenSeq(trx);
  if (broken !== undefined) return int(broken);
  return sql`(select data_version from projects where id = ${projectId})`;
}
