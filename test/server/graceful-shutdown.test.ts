import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importDocument } from '../../src/import/import.js';
import { createKey } from '../../src/keys/repository.js';
import { startServe } from '../support/processes.js';
import { shopDocument } from '../support/shop.js';

// Graceful shutdown: SIGTERM under load. The server stops accepting, answers every request
// it had accepted, closes the database and exits 0. "Accepted" is read from the server's
// own log: every request id it logged as incoming must have reached the client as an
// answer. Requests it never accepted may fail to connect; that is what stopping means.

test(
  'SIGTERM under load: every accepted request is answered, then the process exits 0',
  { timeout: 60_000 },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'sf-term-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const url = `sqlite:${join(dir, 'store.db')}`;
    const setup = connect(url);
    await migrateToLatest(setup.db);
    await importDocument(setup.db, shopDocument());
    const { key } = await createKey(setup, 'shop');
    await setup.close();

    const server = await startServe(t, { DATABASE_URL: url, LOG_LEVEL: 'info' }, { fullLog: true });
    const answered = new Map<string, number>();
    const failed = new Map<string, string>();
    let afterSignal = 0;
    let signalled = false;
    const loop = async (n: number) => {
      for (let i = 0; ; i++) {
        const id = `load-${n}-${i}`;
        const write = i % 3 === 0;
        try {
          const res = await fetch(`${server.url}/v2/projects/shop/products/${write ? (n % 4) + 1 : '?perpage=100'}`, {
            method: write ? 'POST' : 'GET',
            headers: { 'x-request-id': id, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: write ? JSON.stringify({ price: i }) : undefined,
          });
          await res.arrayBuffer();
          answered.set(id, res.status);
          if (signalled) afterSignal++;
        } catch (err) {
          failed.set(id, String((err as { cause?: { code?: string } }).cause?.code ?? err));
          return; // the port is closed: this client stops
        }
      }
    };
    const loops = Array.from({ length: 24 }, (_, n) => loop(n));
    // Signal once the load is well under way (not after a fixed time: machines differ).
    const deadline = Date.now() + 15_000;
    while (answered.size < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    signalled = true;
    server.child.kill('SIGTERM');
    const code = await server.exited;
    await Promise.all(loops);
    assert.equal(code, 0, server.output().slice(-2000));

    const accepted = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { reqId?: string; msg?: string })
      .filter((entry) => entry.msg === 'incoming request' && entry.reqId?.startsWith('load-'))
      .map((entry) => entry.reqId!);
    assert.ok(accepted.length >= 40, `only ${accepted.length} requests were served`);
    const cut = accepted.filter((id) => !answered.has(id));
    assert.deepEqual(
      cut.map((id) => `${id}: ${failed.get(id)}`),
      [],
      'accepted requests that got no answer',
    );
    for (const [id, status] of answered) assert.ok(status < 500, `${id} answered ${status}`);
    assert.ok(server.output().includes('shutting down'));
    const codes = [...new Set(failed.values())].join(', ');
    t.diagnostic(
      `shutdown: ${accepted.length} accepted, all answered (${afterSignal} after SIGTERM); ${failed.size} clients then found the port closed (${codes})`,
    );
  },
);
