import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { connect } from '../../src/db/connect.js';
import { eachBackend } from '../support/each-backend.js';
import { runCli, startServe } from '../support/processes.js';
import { backupPlace, seedShopWithHook } from './databases.js';

// `storefront backup` while a real server takes a steady stream of updates: each writer owns
// one record and sends increasing values one at a time, so the backup must hold, for every
// record, at least the value acknowledged before the backup began. Nothing is torn: each
// update is one transaction of the record, its change-log entry and its webhook event, so the
// restored copy holds exactly one event per version it reached, and each record's latest
// event carries the value stored.

const RECORDS = [
  ...[1, 2, 3, 4].map((id) => ({ type: 'product', id, body: (n: number) => ({ price: n }) })),
  ...[1, 2].map((id) => ({ type: 'order', id, body: (n: number) => ({ delivery_information: `v${n}` }) })),
];
const valueOf = (type: string, record: Record<string, unknown>) =>
  type === 'product' ? Number(record.price) : Number(String(record.delivery_information).slice(1));

eachBackend('backup under writes', (backend) => {
  test('holds every write acknowledged before it began, none torn; restores', { timeout: 120_000 }, async (t) => {
    const place = await backupPlace(t, backend);
    const source = await place.database('source');
    const { key } = await seedShopWithHook(source);
    const server = await startServe(t, { DATABASE_URL: source });
    const acked = new Map<number, number>();
    let next = 1;
    let stop = false;
    let refused = 0;
    const writer = async (i: number) => {
      const { type, id, body } = RECORDS[i];
      while (!stop) {
        const value = next++;
        const res = await fetch(`${server.url}/v2/projects/shop/${type}s/${id}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body(value)),
        });
        // Overloaded (the CI machine), a write may answer 503: not acknowledged, and not lost either.
        if (res.status === 503) refused++;
        else assert.equal(res.status, 200, await res.text());
        await res.arrayBuffer().catch(() => {});
        if (res.status === 200) acked.set(i, value);
      }
    };
    const writers = RECORDS.map((_, i) => writer(i));
    while (acked.size < RECORDS.length) await new Promise((r) => setTimeout(r, 10));
    const before = new Map(acked);
    const file = join(place.dir, 'shop.backup');
    const backup = await runCli(['backup', file, '--database', source, '--verify']);
    const during = [...acked].filter(([i, v]) => v !== before.get(i)).length;
    stop = true;
    await Promise.all(writers);
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /complete and intact/);
    assert.match(backup.stdout, /^products\t\d+$/m);

    const target = await place.database('target');
    const restored = await runCli(['restore', file, '--database', target]);
    assert.equal(restored.code, 0, restored.stderr);
    const storage = connect(target);
    t.after(() => storage.close());
    const db = storage.db;
    const events = await db
      .selectFrom('webhook_messages')
      .select(['type', 'payload'])
      .where('project_id', '=', 'shop')
      .execute();
    // A record's values only grow: its latest event is the one with the highest.
    const latest = new Map<string, number>();
    for (const e of events) {
      const { data } = JSON.parse(e.payload) as { data: Record<string, unknown> };
      const key = `${e.type.split('.')[0]}/${Number(data.id)}`;
      latest.set(key, Math.max(latest.get(key) ?? 0, valueOf(e.type.split('.')[0], data)));
    }
    for (const [i, { type, id }] of RECORDS.entries()) {
      const row =
        type === 'product'
          ? db.selectFrom('products').select('price as v').where('project_id', '=', 'shop').where('id', '=', id)
          : db
              .selectFrom('orders')
              .select('delivery_information as v')
              .where('project_id', '=', 'shop')
              .where('id', '=', id);
      const stored = Number(String((await row.executeTakeFirstOrThrow()).v).replace(/^v/, ''));
      assert.ok(stored >= before.get(i)!, `${type} ${id}: backup holds ${stored}, ${before.get(i)} was acknowledged`);
      assert.equal(latest.get(`${type}/${id}`), stored, `${type} ${id}: its latest event carries what is stored`);
      const change = await db
        .selectFrom('changes')
        .select('seq')
        .where('project_id', '=', 'shop')
        .where('type', '=', type)
        .where('id', '=', id)
        .executeTakeFirst();
      assert.ok(change, `${type} ${id} has its change-log entry`);
    }
    const gap = await db.selectFrom('restores').selectAll().where('project_id', '=', 'shop').executeTakeFirstOrThrow();
    const setupVersion = 1; // the import that made the shop
    assert.equal(events.length, Number(gap.version_before) - setupVersion, 'one event per update in the copy');
    t.diagnostic(
      `backup [${backend}]: ${events.length} updates in the copy, ${during} more acknowledged during it, ${refused} answered 503`,
    );
  });
});
