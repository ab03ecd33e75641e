import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_IMPORTS, DEFAULT_LIMITS } from '../config.js';
import type { Storage } from '../db/connect.js';
import { ImportRunner, type RunnerOptions } from '../imports/runner.js';

// Imports over HTTP in a server process (docs/API.md, "Imports"): `app.imports` (the limits
// the upload route applies, and the job runner). The runner starts once the app is ready —
// first marking failed the jobs that a dead process left running — and stops when it closes,
// a job it was running going back to its queue. Like the webhook worker, it runs where asked
// (every `storefront serve`): an app built without it only queues uploads.

export interface ImportOptions {
  /** run import jobs in this process (serve: always; tests: when they import; off, jobs wait for a process that runs them) */
  runner?: boolean;
  /** IMPORT_MAX_BYTES */
  maxBytes?: number;
  /** IMPORT_SPOOL_DIR */
  spoolDir?: string;
  /** UPLOAD_IDLE_TIMEOUT_MS */
  idleTimeoutMs?: number;
  /** UPLOAD_MIN_BYTES_PER_SECOND (0: no minimum) */
  minBytesPerSecond?: number;
  /** tests: the window that rate is judged over */
  rateWindowMs?: number;
  /**
   * where the jobs' imports write (serve: a connection without the serving pool's statement
   * timeout, src/db/long-writes.ts); default the app's storage
   */
  writer?: Pick<Storage, 'db'>;
  /** tests: the runner's polling, lease and hook */
  pollMs?: number;
  leaseMs?: number;
  beforeRun?: RunnerOptions['beforeRun'];
}

export interface Imports {
  maxBytes: number;
  spoolDir: string;
  /** an upload sending nothing for this long fails (408) */
  idleTimeoutMs: number;
  /** an upload slower than this over a window fails (408) */
  minBytesPerSecond: number;
  rateWindowMs?: number;
  runner: ImportRunner;
}

export default fp(
  async function imports(app: FastifyInstance, options: ImportOptions) {
    const maxBytes = options.maxBytes ?? DEFAULT_IMPORTS.maxBytes;
    const spoolDir = options.spoolDir ?? DEFAULT_IMPORTS.spoolDir;
    const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_LIMITS.uploadIdleTimeoutMs;
    const minBytesPerSecond = options.minBytesPerSecond ?? DEFAULT_LIMITS.uploadMinBytesPerSecond;
    const { rateWindowMs } = options;
    const runner = new ImportRunner({
      db: app.storage.db,
      importDb: options.writer?.db,
      log: app.log,
      spoolDir,
      pollMs: options.pollMs,
      leaseMs: options.leaseMs,
      beforeRun: options.beforeRun,
    });
    app.decorate('imports', {
      maxBytes,
      spoolDir,
      idleTimeoutMs,
      minBytesPerSecond,
      rateWindowMs,
      runner,
    } satisfies Imports);
    if (options.runner) {
      app.addHook('onReady', async () => runner.start());
      app.addHook('onClose', async () => runner.stop());
    }
  },
  { name: 'imports', dependencies: ['storage'] },
);
