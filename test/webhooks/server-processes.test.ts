import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import type { Backend } from '../../src/db/connect.js';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importDocument } from '../../src/import/import.js';
import { createKey } from '../../src/keys/repository.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { eachBackend } from '../support/each-backend.js';
import { freshDatabase } from '../support/pg-database.js';
import { type ServerProcess, runCli, startServe } from '../support/processes.js';
import { SHOP, shopDocument } from '../support/shop.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

// Webhooks across real `storefront serve` processes: an update acknowledged before a SIGKILL
// still has its event delivered after the restart (the outbox commits with the change), and
// two processes on one database never deliver one message at the same time. Also the CLI.

async function database(t: TestContext, backend: Backend): Promise<string> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'sf-hooks-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    return `sqlite:${join(dir, 'store.db')}`;
  }
  return (await freshDatabase(t, 'hooks')).url;
}

/** A shop with a key and one endpoint pointing at a fresh receiver. */
async function setup(t: TestContext, backend: Backend) {
  const url = await database(t, backend);
  const receiver = await startReceiver(t);
  const db = connect(url);
  await migrateToLatest(db.db);
  await importDocument(db.db, shopDocument());
  const { key } = await createKey(db, SHOP);
  const { info, secret } = await createEndpoint(db, SHOP, receiver.url, undefined, 1);
  await db.close();
  receiver.secrets.push(secret);
  return { url, key, receiver, endpointId: info.id };
}

const ENV = { WEBHOOK_ALLOW_PRIVATE: '1' };
const RECORDS = [1, 2, 3, 4].map((id) => ({ path: `products/${id}`, type: 'product.updated', id }));

/** Sends increasing prices to each product, one request at a time per product, until stopped. */
function writers(servers: () => ServerProcess[], key: string, acked: Set<string>) {
  let stop = false;
  let next = 1;
  let sent = 0;
  const run = async (i: number) => {
    while (!stop) {
      const value = next++;
      const list = servers();
      const server = list[value % list.length];
      try {
        const res = await fetch(`${server.url}/v2/projects/${SHOP}/${RECORDS[i].path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ price: value }),
        });
        sent++;
        if (res.status === 200) acked.add(`${RECORDS[i].id}:${value}`);
        else if (!stop) assert.fail(`update answered ${res.status}`);
      } catch {
        return; // the process is gone: this update was never acknowledged
      }
    }
  };
  const all = Promise.all(RECORDS.map((_, i) => run(i)));
  return {
    sent: () => sent,
    stop: async () => {
      stop = true;
      await all;
    },
  };
}

const delivered = (r: Receiver) => new Set(r.deliveries.map((d) => `${d.data.id}:${d.data.price}`));

eachBackend('webhooks across server processes', (backend) => {
  test(
    'SIGKILL during a burst of updates: every acknowledged update is delivered after the restart',
    { timeout: 90_000 },
    async (t) => {
      const { url, key, receiver } = await setup(t, backend);
      receiver.delayMs = 5; // deliveries in flight when the process dies
      const server = await startServe(t, { DATABASE_URL: url, ...ENV });
      const acked = new Set<string>();
      const burst = writers(() => [server], key, acked);
      await receiver.waitFor((r) => r.deliveries.length >= 20, 'deliveries under way');
      server.child.kill('SIGKILL');
      await server.exited;
      await burst.stop();
      assert.ok(acked.size >= 20, `only ${acked.size} updates were acknowledged`);

      // The restarted process delivers what was left (leases of the dead one expire after 20 s).
      await startServe(t, { DATABASE_URL: url, ...ENV });
      await receiver.waitFor((r) => [...acked].every((a) => delivered(r).has(a)), 'every acknowledged update', 60_000);
      assert.deepEqual(receiver.badSignatures, []);
      t.diagnostic(
        `webhooks crash [${backend}]: ${acked.size} acknowledged, all delivered; ${receiver.deliveries.length} deliveries in all`,
      );
    },
  );

  test('two server processes: every message delivered, never by both at once', { timeout: 90_000 }, async (t) => {
    const { url, key, receiver } = await setup(t, backend);
    receiver.delayMs = 30; // a delivery stays open a while: a second one of the same id would overlap
    const servers = [
      await startServe(t, { DATABASE_URL: url, ...ENV }),
      await startServe(t, { DATABASE_URL: url, ...ENV }),
    ];
    const acked = new Set<string>();
    const burst = writers(() => servers, key, acked);
    await receiver.waitFor((r) => r.deliveries.length >= 60, 'sixty deliveries');
    await burst.stop();
    await receiver.waitFor((r) => [...acked].every((a) => delivered(r).has(a)), 'every acknowledged update', 30_000);
    assert.deepEqual(receiver.overlaps, []);
    const ids = receiver.deliveries.map((d) => d.id);
    assert.equal(new Set(ids).size, ids.length, 'no message delivered twice');
    t.diagnostic(`webhooks two processes [${backend}]: ${ids.length} messages, each delivered once`);
  });

  test('the CLI: create, list, deliveries, replay, roll-secret, delete', { timeout: 150_000 }, async (t) => {
    const { url, receiver, endpointId } = await setup(t, backend);
    const cli = (...args: string[]) => runCli(['webhook', ...args], { DATABASE_URL: url, ...ENV });
    const made = await cli('create', SHOP, receiver.url, '--events', 'order.updated,import.completed');
    assert.equal(made.code, 0, made.stderr);
    const [id, secret] = made.stdout.trim().split('\t');
    assert.match(id, /^[0-9]+$/);
    assert.match(secret, /^whsec_/);
    const listed = await cli('list', SHOP);
    assert.deepEqual(
      listed.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t').slice(0, 4)),
      [
        [String(endpointId), receiver.url, '*', 'enabled'],
        [id, receiver.url, 'order.updated,import.completed', 'enabled'],
      ],
    );
    assert.ok(!listed.stdout.includes('whsec_'));

    const server = await startServe(t, { DATABASE_URL: url, ...ENV });
    const db = connect(url);
    t.after(() => db.close());
    const { key } = await createKey(db, SHOP);
    await fetch(`${server.url}/v2/projects/${SHOP}/orders/1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fulfillment_status: 'delivered' }),
    });
    await receiver.waitFor((r) => r.deliveries.length === 1, 'the order event (to the first endpoint)');
    receiver.secrets.splice(0, 1, secret);
    const deliveries = await cli('deliveries', id);
    assert.equal(deliveries.code, 0, deliveries.stderr);
    const [line] = deliveries.stdout.trim().split('\n');
    const [messageId, type] = line.split('\t');
    assert.equal(type, 'order.updated');
    const replayed = await cli('replay', messageId);
    assert.match(replayed.stdout, new RegExp(`replaying ${messageId} to webhook endpoint ${endpointId}`));
    await receiver.waitFor(
      (r) => r.deliveries.some((d) => d.id === messageId && d.verifiedBy[0] === secret),
      'the replay',
    );

    const rolled = await cli('roll-secret', id, '--overlap', '1h');
    assert.match(rolled.stdout.trim(), /^whsec_/);
    assert.match(rolled.stderr, /both secrets sign until/);
    // CONTRACT 13: without --overlap the old secret signs for 24 hours; --overlap 0 ends it at once.
    const before = Date.now();
    const byDefault = await cli('roll-secret', id);
    const until = Date.parse(/both secrets sign until (\S+),/.exec(byDefault.stderr)![1]);
    assert.ok(Math.abs(until - before - 86_400_000) < 120_000, byDefault.stderr);
    const atOnce = await cli('roll-secret', id, '--overlap', '0');
    assert.match(atOnce.stdout.trim(), /^whsec_/);
    assert.match(atOnce.stderr, /the old secret stopped signing at once/);
    assert.equal((await cli('delete', id)).stdout, `deleted webhook endpoint ${id}\n`);

    const refused = await runCli(['webhook', 'create', SHOP, 'http://127.0.0.1:9/x'], {
      DATABASE_URL: url,
      WEBHOOK_ALLOW_PRIVATE: '0',
    });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /loopback, private or link-local/);
    const badEvent = await cli('create', SHOP, receiver.url, '--events', 'nope');
    assert.equal(badEvent.code, 2);
    assert.match(badEvent.stderr, /unknown event "nope"/);
  });
});
