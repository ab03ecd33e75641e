import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { type Storage, connect } from '../../src/db/connect.js';
import type { Reads } from '../../src/db/reads.js';
import { snapshotStream } from '../../src/export/snapshot-stream.js';
import { testApp } from '../support/app.js';
import { type StandbyPair, until } from '../support/pg-standby.js';
import { call } from '../support/request.js';
import { SHOP } from '../support/shop.js';

// Reads a standby cancels for a conflict with the WAL it replays (SQLSTATE 40001), on the
// private primary and standby of postgres-read-replicas.test.ts. The standby cancels at once
// (max_standby_streaming_delay = 0) and holds nothing back on the primary
// (hot_standby_feedback = off), as a standby tuned for freshness does:
// - a statement of a request: run again on the primary, answered 200 with the primary's rows;
// - a read in one snapshot (the change feed's exact snapshot, an export): restarted whole on the
//   primary, never finished from two states; an export already partly sent is cut off.

export function recoveryConflictTests(pairOf: () => StandbyPair): void {
  /** The standby cancels conflicting reads at once; its own settings again at the end. */
  async function eager(t: TestContext): Promise<StandbyPair> {
    const pair = pairOf();
    await pair.onStandby('alter system set max_standby_streaming_delay = 0');
    await pair.onStandby('alter system set hot_standby_feedback = off');
    await pair.onStandby('select pg_reload_conf()');
    // The startup process rereads its settings on the signal, not at once.
    await new Promise((r) => setTimeout(r, 500));
    t.after(async () => {
      await pair.onStandby('alter system reset max_standby_streaming_delay');
      await pair.onStandby('alter system reset hot_standby_feedback');
      await pair.onStandby('select pg_reload_conf()');
    });
    return pair;
  }

  async function replicaStorage(t: TestContext, pair: StandbyPair): Promise<Storage> {
    const storage = connect(pair.primaryUrl, { replicaUrls: [pair.standbyUrl], replicaMaxLagMs: 60_000 });
    t.after(() => storage.close());
    await until('the standby to be usable', () => storage.replicas!.state()[0].up);
    return storage;
  }

  /** The replica's own handle (not the primary's, which `choices()` puts last). */
  function standbyReads(storage: Storage): Reads {
    const [reads] = storage.reads.choices();
    assert.notEqual(reads.source, 'primary');
    return reads;
  }

  /** Until the standby has replayed everything the primary has written so far. */
  async function replayed(pair: StandbyPair): Promise<void> {
    // WAL is sent once flushed: a synchronous commit flushes all before it (an open
    // transaction's lock, a vacuum's cleanup).
    await pair.onPrimary('set synchronous_commit = on; select txid_current()');
    const now = await pair.onPrimary('select pg_current_wal_lsn()::text as lsn');
    const lsn = (now.rows[0] as { lsn: string }).lsn;
    await until('the standby to replay', async () => {
      const r = await onStandby(pair, `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as done`);
      return (r.rows[0] as { done: boolean }).done;
    });
  }

  /**
   * On the primary, a new name for product 1 and a vacuum that removes the old row: a conflict
   * for older snapshots. The price changes too, so that the update is not HOT (an indexed column
   * moves): the standby cancelled nothing when a vacuum only pruned a HOT chain of this page
   * (seen on PostgreSQL 15 from the second such rename in a cluster on: the first conflicted
   * through the index entries of earlier rows).
   */
  async function renameAndVacuum(pair: StandbyPair, name: string): Promise<void> {
    await pair.onPrimary(
      `update products set name = '${name}', price = price + 1 where project_id = '${SHOP}' and id = 1`,
    );
    await vacuumedClean(pair, 'products');
    await replayed(pair);
  }

  /**
   * Vacuums `table` until it removed every dead row: a vacuum leaves a row another snapshot
   * of the primary may still see (an autovacuum's analyze, a pool's probe at that instant) and
   * the rows of a page another backend has pinned, and a row left there makes no conflict.
   */
  async function vacuumedClean(pair: StandbyPair, table: string): Promise<void> {
    const client = new pg.Client({ connectionString: pair.primaryUrl });
    client.on('error', () => {});
    await client.connect();
    let report = '';
    client.on('notice', (n) => (report += `${n.message}\n`));
    try {
      await until(`a vacuum of ${table} to remove every dead row`, async () => {
        report = '';
        await client.query(`vacuum (verbose) ${table}`);
        return /\b0 are dead but not yet removable/.test(report) && !/tuples missed/.test(report);
      });
    } finally {
      await client.end();
    }
  }

  const nameOf = async (db: Parameters<Parameters<Reads['exactSnapshot']>[0]>[0]) =>
    (await sql<{ name: string }>`select name from products where project_id = ${SHOP} and id = 1`.execute(db)).rows[0]
      .name;

  const timeout = { timeout: 30_000 };

  test(
    'a request whose statement the standby cancels is answered 200 by the primary, with its rows',
    timeout,
    async (t) => {
      const pair = await eager(t);
      const storage = await replicaStorage(t, pair);
      const { app } = await testApp(t, 'postgres', { storage, rateLimit: false });
      const [elsewhere, holder] = await clients(t, pair, 2);
      // Every standby snapshot from here on is older than the update below: an open transaction
      // of another database (which holds back no vacuum of this one) is running for the standby.
      await pair.onPrimary('create table if not exists conflict_rows (id int primary key, v int)');
      await pair.onPrimary(
        'insert into conflict_rows select g, 0 from generate_series(1, 100) g on conflict do nothing',
      );
      await elsewhere.query('begin; select txid_current()');
      await pair.onPrimary('update conflict_rows set v = v + 1');
      // The standby's replay holds products (a lock of an open transaction of the primary, which
      // takes no snapshot): the request's read of products waits on the standby.
      const { rows } = await pair.onPrimary(`select name from products where project_id = '${SHOP}' and id = 2`);
      await holder.query('begin; lock table products in access exclusive mode');
      await replayed(pair);
      const onPrimary = storage.replicas!.primaryStatements;
      const cancelled = await conflicts(pair);
      const answer = call(app, 'GET', `/v2/projects/${SHOP}/products/2`);
      await until('the request to wait on the standby', async () => {
        const r = await onStandby(
          pair,
          "select count(*)::int as n from pg_locks where not granted and relation = 'products'::regclass",
        );
        return (r.rows[0] as { n: number }).n > 0;
      });
      // The vacuum's replay conflicts with the waiting statement's snapshot: cancelled at once.
      await pair.onPrimary('vacuum conflict_rows');
      await replayed(pair);
      // Its rerun on the primary waits for the same lock there.
      await holder.query('rollback');
      const done = await answer;
      // Counted by the cancelled session, which reports its statistics within a second or so.
      await until('the standby to count the cancel', async () => (await conflicts(pair)) > cancelled);
      assert.equal(done.status, 200, done.text);
      assert.equal((done.body as { name: string }).name, (rows[0] as { name: string }).name);
      assert.ok(storage.replicas!.primaryStatements > onPrimary, 'the primary answered the cancelled statement');
    },
  );

  test('an exact snapshot the standby cancels restarts whole on the primary', timeout, async (t) => {
    const pair = await eager(t);
    const storage = await replicaStorage(t, pair);
    const reads = standbyReads(storage);
    const renamed = `renamed ${Date.now()}`;
    const cancelled = await conflicts(pair);
    const runs: string[][] = [];
    const result = await reads.exactSnapshot(async (db) => {
      const run: string[] = [];
      runs.push(run);
      run.push(await nameOf(db));
      // The first run's snapshot is older than the rename; the vacuum removes the row it sees.
      if (runs.length === 1) await renameAndVacuum(pair, renamed);
      run.push(await nameOf(db));
      return run;
    });
    assert.equal(runs.length, 2, 'run again after the conflict');
    assert.equal(runs[0].length, 1, 'the first run ended at its first statement after the conflict');
    assert.deepEqual(result, [renamed, renamed], 'the second run saw the primary, in one state');
    await until('the standby to count the cancel', async () => (await conflicts(pair)) > cancelled);
  });

  test(
    'an export the standby cancels: restarted on the primary before a byte is sent, cut off after',
    timeout,
    async (t) => {
      const pair = await eager(t);
      const storage = await replicaStorage(t, pair);
      const lost: Error[] = [];
      const limit = { maxMs: 30_000, onLimit: () => {}, onLost: (e: Error) => lost.push(e) };
      const exportOf = async (sendFirst: boolean) => {
        await until('the standby to be usable', () => storage.replicas!.state()[0].up);
        let runs = 0;
        const out = snapshotStream(
          standbyReads(storage),
          async (db, emit) => {
            runs++;
            const before = await nameOf(db);
            if (sendFirst) await emit(`${before}\n`);
            if (runs === 1) await renameAndVacuum(pair, `export ${sendFirst} ${Date.now()}`);
            await emit(`${await nameOf(db)}\n`);
          },
          limit,
        );
        return new Promise<{ text: string; error?: Error; runs: number }>((resolve) => {
          let text = '';
          out.on('data', (d: Buffer) => (text += d.toString()));
          out.on('end', () => resolve({ text, runs }));
          out.on('error', (error) => resolve({ text, error, runs }));
        });
      };
      const quiet = await exportOf(false);
      assert.equal(quiet.error, undefined);
      assert.equal(quiet.runs, 2);
      const now = await pair.onPrimary(`select name from products where project_id = '${SHOP}' and id = 1`);
      assert.equal(quiet.text, `${(now.rows[0] as { name: string }).name}\n`, "the primary's state, whole");
      assert.deepEqual(lost, []);

      const sent = await exportOf(true);
      assert.match(sent.error?.message ?? '', /lost the export's snapshot after part of it was sent/);
      assert.equal(sent.text.split('\n').length, 2, 'only the line sent before the conflict');
      assert.equal(lost.length, 1, 'told once');
    },
  );
}

/** `n` connections to the primary, the first to a database of its own; ended after the test. */
async function clients(t: TestContext, pair: StandbyPair, n: number): Promise<pg.Client[]> {
  await pair.onPrimary('create database elsewhere').catch(() => {}); // made by an earlier test
  const made = Array.from(
    { length: n },
    (_, i) =>
      new pg.Client({
        connectionString: i === 0 ? pair.primaryUrl.replace(/\/postgres$/, '/elsewhere') : pair.primaryUrl,
      }),
  );
  for (const c of made) c.on('error', () => {}); // a session the server ends fails its statement
  await Promise.all(made.map((c) => c.connect()));
  t.after(() => Promise.all(made.map((c) => c.end())));
  return made;
}

/**
 * The reads the standby has cancelled for conflicts (pg_stat_database_conflicts): of a snapshot
 * when the settings are in force; a lock or a deadlock with the replay when the startup process
 * had not yet read them (it waits, then cancels).
 */
async function conflicts(pair: StandbyPair): Promise<number> {
  const { rows } = await onStandby(
    pair,
    `select (confl_snapshot + confl_lock + confl_deadlock + confl_bufferpin)::int as n
       from pg_stat_database_conflicts where datname = current_database()`,
  );
  return (rows[0] as { n: number }).n;
}

/** A statement on the standby, run again when the standby cancels it too (the conflicts are the test's). */
async function onStandby(pair: StandbyPair, text: string): Promise<pg.QueryResult> {
  for (let i = 0; ; i++) {
    try {
      return await pair.onStandby(text);
    } catch (e) {
      if ((e as { code?: string }).code !== '40001' || i === 5) throw e;
    }
  }
}
