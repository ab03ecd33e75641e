import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.js';
import type { Backend, Storage } from '../../src/db/connect.js';
import { importDocument } from '../../src/import/import.js';
import { createKey } from '../../src/keys/repository.js';
import { openStorage } from './storage.js';

// Helpers of the hardening suites: an app with chosen options, and a real server process
// that a test can kill.

export interface Built {
  app: FastifyInstance;
  storage: Storage;
  key(projectId: string): Promise<string>;
}

export async function buildWith(
  t: TestContext,
  backend: Backend,
  options: Omit<AppOptions, 'storage'> = {},
  storage?: Storage,
): Promise<Built> {
  const store = storage ?? (await openStorage(backend));
  const app = await buildApp({ storage: store, ...options });
  t.after(async () => {
    await app.close();
    if (!storage) await store.close();
  });
  return { app, storage: store, key: async (projectId) => (await createKey(store.db, projectId, 'test')).key };
}

/** Two projects that reuse ids (products, users, orders); `shop` has a hidden product (id 3, "Hidden gem"). */
export function shop() {
  return {
    project: { id: 'shop', name: 'Shop', currency: 'EUR' },
    categories: [
      { id: 1, handle: 'fruit', name: 'Fruit', parent_id: null },
      { id: 2, handle: 'berries', name: 'Berries', parent_id: 1 },
    ],
    products: [
      {
        id: 1,
        handle: 'alpha',
        name: 'Apple',
        description: 'Crisp.',
        sku: 'APL-1',
        price: 300,
        category_ids: [1],
        created_at: 1000,
      },
      {
        id: 2,
        handle: 'bravo',
        name: 'Banana',
        price: 100,
        inventory_type: 'advanced',
        stock_quantity: 5,
        category_ids: [1],
        created_at: 2000,
      },
      {
        id: 3,
        handle: 'charlie',
        name: 'Cherry',
        description: 'Hidden gem.',
        price: 200,
        show_in_store: false,
        category_ids: [2],
        created_at: 3000,
      },
      { id: 4, handle: 'delta', name: 'Date', price: 400, created_at: 4000 },
    ],
    plans: [{ id: 1, name: 'Basic', status: 'active', prices: [{ id: 1, amount: 900, interval: 'month' }] }],
    users: [{ id: 1, email: 'ada@example.com', name: 'Ada' }],
    orders: [
      {
        id: 1001,
        customer_email: 'ada@example.com',
        customer_name: 'Ada',
        items: [{ product_id: 1, name: 'Apple', quantity: 1, price: 300 }],
        total: 300,
        payment_status: 'pending',
      },
      { id: 1002, customer_email: 'ada@example.com', customer_name: 'Ada', items: [], total: 0 },
    ],
  };
}

export function other() {
  return {
    project: { id: 'other', name: 'Other', currency: 'JPY' },
    categories: [{ id: 1, handle: 'secret', name: 'Secretcategory', parent_id: null }],
    products: [
      { id: 1, handle: 'alpha', name: 'Otherapple', price: 1, category_ids: [1], created_at: 1 },
      { id: 9, handle: 'only-other', name: 'Otheronly', price: 1, show_in_store: false, created_at: 1 },
    ],
    plans: [{ id: 1, name: 'Otherplan', status: 'active' }],
    users: [{ id: 1, email: 'otheruser@example.com', name: 'Otheruser' }],
    orders: [{ id: 1001, customer_email: 'otherbuyer@example.com', customer_name: 'Otherbuyer', items: [], total: 5 }],
  };
}

export async function seed(storage: Storage): Promise<void> {
  await importDocument(storage.db, shop());
  await importDocument(storage.db, other());
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** everything the process wrote to stdout so far (its JSON log lines) */
  output(): string;
  exited: Promise<number | null>;
}

/** Starts `storefront serve` on a free port and waits until /healthz answers. */
export async function startProcess(
  t: TestContext,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['bin/storefront.js', 'serve', '--port', String(port), '--database', databaseUrl],
    {
      env: { ...process.env, STOREFRONT_DEMO: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${out}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start within 15 s: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, url, output: () => out, exited };
}
