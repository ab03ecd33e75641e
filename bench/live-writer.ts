import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type * as Connect from '../src/db/connect.js';
import type * as Import from '../src/import/import.js';

// The writes of a live shop (live-shop.ts), sent at a fixed rate from a thread of their own,
// so that the load generator's event loop never delays them: each write starts at its
// appointed time whether the one before has ended or not (an open loop, as customers and
// back offices do not wait for each other). Reports each write's time.

export interface WriterJob {
  kind: 'order' | 'stock' | 'import';
  /** writes a second (an import: one every 1 / perSecond seconds) */
  perSecond: number;
  seconds: number;
  base: string;
  key: string;
  orderIds: number[];
  /** products whose stock is updated, with what their inventory type takes */
  stock: { id: number; advanced: boolean }[];
  /** an import: the checkout measured (its import code writes), the database, the project row */
  serverRoot: string;
  url: string;
  project: { id: string; name: string; currency: string };
  firstOrderId: number;
  maxProductId: number;
}

export interface WriterReport {
  /** milliseconds of each write that ended well */
  times: number[];
  failed: number;
  /** the first failure's message */
  error?: string;
}

const job = workerData as WriterJob;
const headers = { authorization: `Bearer ${job.key}`, 'content-type': 'application/json' };
const PAYMENT = ['paid', 'pending', 'refunded'];
const FULFILLMENT = ['unfulfilled', 'shipped', 'delivered'];

function pick<T>(list: T[]): T {
  return list[Math.floor(Math.random() * list.length)];
}

async function post(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${job.base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (res.status === 200) return void (await res.arrayBuffer());
  if (res.status !== 200)
    throw new Error(
      `${path}: ${res.status} ${Buffer.from(await res.arrayBuffer())
        .toString()
        .slice(0, 200)}`,
    );
}

async function main(): Promise<void> {
  const times: number[] = [];
  let failed = 0;
  let error: string | undefined;
  let importer: ((n: number) => Promise<void>) | undefined;
  if (job.kind === 'import') importer = await importerOf();
  let nextOrder = job.firstOrderId;
  const one = async (): Promise<void> => {
    if (job.kind === 'order') {
      await post(`/orders/${pick(job.orderIds)}`, {
        payment_status: pick(PAYMENT),
        fulfillment_status: pick(FULFILLMENT),
      });
    } else if (job.kind === 'stock') {
      const p = pick(job.stock);
      await post(
        `/products/${p.id}`,
        p.advanced ? { stock_quantity: Math.floor(Math.random() * 100) } : { in_stock: Math.random() < 0.8 },
      );
    } else {
      await importer!(nextOrder);
      nextOrder += 500;
    }
  };
  const interval = 1000 / job.perSecond;
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i * interval < job.seconds * 1000; i++) {
    const at = start + i * interval;
    const wait = at - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    pending.push(
      one().then(
        () => void times.push(performance.now() - t0),
        (e: unknown) => {
          failed++;
          error ??= String((e as Error).message ?? e);
        },
      ),
    );
  }
  await Promise.all(pending);
  parentPort!.postMessage({ times, failed, error } satisfies WriterReport);
  process.exit(0);
}

/** 500 new orders in one import, through the measured checkout's own import code (another process's write). */
async function importerOf(): Promise<(first: number) => Promise<void>> {
  const code = (path: string) => import(pathToFileURL(join(job.serverRoot, 'dist', 'src', path)).href);
  const { connect } = (await code('db/connect.js')) as typeof Connect;
  const { importDocument } = (await code('import/import.js')) as typeof Import;
  const storage = connect(job.url);
  return async (first) => {
    const orders = Array.from({ length: 500 }, (_, i) => {
      const product = 1 + Math.floor(Math.random() * job.maxProductId);
      return {
        id: first + i,
        customer_email: `live${first + i}@example.com`,
        items: [{ product_id: null, name: `item ${product}`, quantity: 1, price: 100 + (product % 900) }],
        payment_status: pick(PAYMENT),
        fulfillment_status: pick(FULFILLMENT),
      };
    });
    await importDocument(storage.db, { project: job.project, orders });
  };
}

void main();
