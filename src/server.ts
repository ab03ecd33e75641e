import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { BackupSchedule } from './backups/schedule.js';
import { type Config, resolveLogFormat } from './config.js';
import { type Storage, connect } from './db/connect.js';
import { longWriteStorage } from './db/long-writes.js';
import { migrateToLatest } from './db/migrate.js';
import { isEmpty, loadDemo } from './demo/load-demo.js';
import { isStorageUnavailable } from './http/error-mapping.js';

// Listening and closing, nothing else: the API itself is built in app.ts.

export interface RunningServer {
  app: FastifyInstance;
  storage: Storage;
  url: string;
  close(): Promise<void>;
  /** how long SIGTERM waits for requests in flight before giving up */
  shutdownTimeoutMs?: number;
}

export async function startServer(config: Config, out: NodeJS.WritableStream = process.stdout): Promise<RunningServer> {
  const storage = connect(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    sqliteReaders: config.sqliteReaders,
    replicaUrls: config.databaseReplicaUrls,
    replicaMaxLagMs: config.replicaMaxLagMs,
  });
  let demo: { projectId: string; key: string } | undefined;
  // Start-up needs the database (the schema is migrated first), so a database that cannot
  // be reached fails fast with one clear line; a supervisor (systemd, Kubernetes) retries.
  // Once running, the service rides out outages by itself: requests answer 503 meanwhile.
  try {
    await migrateToLatest(storage.db);
    if (config.demo && (await isEmpty(storage.db))) demo = await loadDemo(storage.db);
  } catch (e) {
    await storage.close().catch(() => {});
    const message = (e as Error).message?.split('\n')[0] || String(e);
    throw new Error(
      isStorageUnavailable(e)
        ? `cannot reach the database ${storage.describe} (${message}); start it or fix DATABASE_URL, then retry`
        : message,
      { cause: e },
    );
  }

  // Import jobs write without the serving pool's statement timeout (src/db/long-writes.ts).
  const importWriter = longWriteStorage(config.databaseUrl, storage);
  const { dir: backupDir, ...backupEvery } = config.backups;
  const backups = backupDir ? new BackupSchedule(config.databaseUrl, { dir: backupDir, ...backupEvery }) : undefined;
  const app = await buildApp({
    storage,
    logger: { level: config.logLevel },
    logFormat: resolveLogFormat(config.logFormat, process.stdout),
    rateLimit: config.rateLimit,
    limits: config.limits,
    caches: config.caches,
    trustProxy: config.trustProxy,
    metricsToken: config.metricsToken,
    backups: backups?.state,
    exportMaxSeconds: config.streams.exportMaxSeconds,
    cdnMaxAge: config.cdnMaxAge,
    noColor: config.noColor,
    webhooks: { worker: true, allowPrivate: config.webhookAllowPrivate },
    adminKeyHashes: config.adminKeyHashes,
    imports: {
      runner: true,
      maxBytes: config.imports.maxBytes,
      spoolDir: config.imports.spoolDir,
      writer: importWriter.storage,
    },
  });
  await app.listen({ port: config.port, host: config.host });
  backups?.start(app.log);
  // Shopper search's match indexes of the largest projects, built now rather than at their first search.
  app.matchIndexes
    .warm(storage.reads)
    .catch((error: unknown) => app.log.warn({ err: error }, 'search index warm-up stopped'));
  const url = listeningUrl(app, config);
  if (demo) out.write(demoBanner(url, storage.describe, demo));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await backups?.stop(); // a backup under way finishes first
      await app.close(); // stops accepting, lets requests in flight finish
      if (importWriter.owned) await importWriter.storage.close();
      await storage.close();
    })());
  return { app, storage, url, close, shutdownTimeoutMs: config.limits.shutdownTimeoutMs };
}

/** Where the server listens, as a client on this machine reaches it. */
function listeningUrl(app: FastifyInstance, config: Config): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost =
    config.host === '0.0.0.0' || config.host === '::'
      ? '127.0.0.1'
      : config.host.includes(':')
        ? `[${config.host}]`
        : config.host;
  return `http://${shownHost}:${port}`;
}

/** The lines a fresh start prints once it loaded the demo project: its key, shown only now. */
function demoBanner(url: string, describe: string, demo: { projectId: string; key: string }): string {
  const base = `${url}/v2/projects/${demo.projectId}`;
  return (
    [
      '',
      `Loaded the demo project "${demo.projectId}" into ${describe}.`,
      `API key for "${demo.projectId}" (shown only now): ${demo.key}`,
      'Try:',
      `  curl '${base}/products/?perpage=3&order=price_asc'`,
      `  curl -H 'Authorization: Bearer ${demo.key}' '${base}/orders/?perpage=3'`,
      '',
    ].join('\n') + '\n'
  );
}

/**
 * Closes cleanly on SIGTERM and SIGINT: the port stops accepting, requests in flight are
 * answered, then the database is closed. If that takes longer than the shutdown timeout
 * (a client that never finishes), the process exits non-zero rather than hang forever.
 */
export function closeOnSignals(server: RunningServer): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      server.app.log.info({ signal }, 'shutting down');
      const timeout = server.shutdownTimeoutMs ?? 10_000;
      setTimeout(() => {
        server.app.log.error({ timeout }, 'shutdown timed out; exiting with requests unfinished');
        process.exit(1);
      }, timeout).unref();
      server.close().then(
        () => process.exit(0),
        (err) => {
          server.app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
