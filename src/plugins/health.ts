import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { type BackupState, backupReport } from '../backups/schedule.js';
import { ApiError } from '../errors.js';

// /healthz: the process is up and serving (liveness). /readyz: the database answers within
// a second (readiness): a load balancer stops sending traffic while it does not, without
// the process being restarted. Neither touches a project's data, so neither needs a key.
// With DATABASE_REPLICA_URLS, /readyz lists each replica as its last probe found it (up, lag,
// statements served, why it is left out); a replica down keeps the process ready, since reads
// then go to the primary (CONTRACT 16). With BACKUP_DIR, `backup` says when the last one was
// made and how large it is, and `warnings` says when it failed or is late (CONTRACT 20).

const READY_TIMEOUT_MS = 1000;

export default fp(
  async function health(app: FastifyInstance, options: { backups?: BackupState }) {
    app.get('/healthz', async () => {
      return { status: 'ok' };
    });

    app.get('/readyz', async (request) => {
      try {
        // The primary's own read handle: readiness is the primary's, never a replica's.
        await withTimeout(sql`select 1`.execute(app.storage.reads.general), READY_TIMEOUT_MS);
      } catch (err) {
        request.log.warn({ err: { message: (err as Error).message } }, 'database is not reachable');
        throw new ApiError(503, 'storage is unavailable; try again shortly');
      }
      // Replicas are reported, never judged: a replica left out only moves reads elsewhere.
      const replicas = app.storage.replicas?.state();
      // A late or failed backup is a warning, not unreadiness: the API still serves.
      const backups = options.backups && backupReport(options.backups);
      return {
        status: 'ok',
        database: app.storage.backend,
        ...(replicas ? { replicas } : {}),
        ...(backups ? { backup: backups.backup } : {}),
        ...(backups?.warning ? { warnings: [backups.warning] } : {}),
      };
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
