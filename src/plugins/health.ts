import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { ApiError } from '../errors.js';

// /healthz: the process is up and serving (liveness). /readyz: the database answers within
// a second (readiness): a load balancer stops sending traffic while it does not, without
// the process being restarted. Neither touches a project's data, so neither needs a key.
// With DATABASE_REPLICA_URLS, /readyz lists each replica as its last probe found it (up, lag,
// statements served, why it is left out); a replica down keeps the process ready, since reads
// then go to the primary (CONTRACT 16).

const READY_TIMEOUT_MS = 1000;

export default fp(
  async function health(app: FastifyInstance) {
    app.get('/healthz', async () => {
      return { status: 'ok' };
    });

    app.get('/readyz', async (request) => {
      try {
        await withTimeout(sql`select 1`.execute(app.storage.db), READY_TIMEOUT_MS);
      } catch (err) {
        request.log.warn({ err: { message: (err as Error).message } }, 'database is not reachable');
        throw new ApiError(503, 'storage is unavailable; try again shortly');
      }
      // Replicas are reported, never judged: a replica left out only moves reads elsewhere.
      const replicas = app.storage.replicas?.state();
      return { status: 'ok', database: app.storage.backend, ...(replicas ? { replicas } : {}) };
    });
  },
  { name: 'health', dependencies: ['storage'] },
);

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
