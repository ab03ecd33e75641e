import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DeliveryWorker } from '../webhooks/worker.js';

// Webhooks in a server process: `app.webhooks` (the address rule and the clock the
// management routes use) and, when `worker` is on (every `storefront serve`), the delivery
// worker, started once the app is ready and stopped, its deliveries in flight finished,
// when the app closes.

export interface WebhookOptions {
  /** run the delivery worker in this process (serve: always; tests: when they deliver) */
  worker?: boolean;
  /** WEBHOOK_ALLOW_PRIVATE=1: endpoints may be loopback, private or link-local addresses */
  allowPrivate?: boolean;
  /** the clock of the retry schedule, in milliseconds (tests move it) */
  now?: () => number;
  /** the jitter's random numbers (tests fix them) */
  random?: () => number;
  /** how often other processes' work is looked for, in milliseconds */
  pollMs?: number;
  /** a receiver's time to answer, in milliseconds (default 15 s) */
  timeoutMs?: number;
}

export interface Webhooks {
  allowPrivate: boolean;
  /** milliseconds */
  now(): number;
  worker: DeliveryWorker | null;
}

export default fp(
  async function webhooks(app: FastifyInstance, options: WebhookOptions) {
    const now = options.now ?? Date.now;
    const allowPrivate = options.allowPrivate ?? false;
    const worker = options.worker
      ? new DeliveryWorker({
          db: app.storage.db,
          allowPrivate,
          now,
          random: options.random,
          pollMs: options.pollMs,
          timeoutMs: options.timeoutMs,
          log: app.log,
        })
      : null;
    app.decorate('webhooks', { allowPrivate, now, worker } satisfies Webhooks);
    if (worker) {
      app.addHook('onReady', async () => worker.start());
      app.addHook('onClose', async () => worker.stop());
    }
  },
  { name: 'webhooks', dependencies: ['storage'] },
);
