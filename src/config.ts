import { loadBackupConfig } from './config-backups.js';
import { loadStreamLimits } from './config-streams.js';
import {
  ConfigError,
  parseAdminKeyHashes,
  parseCount,
  parseCountOrZero,
  parsePoolSize,
  parsePort,
  parseReaders,
  parseReplicaUrls,
  parseSwitch,
  parseTrustProxy,
} from './config-values.js';

import {
  type Config,
  DEFAULT_CACHES,
  DEFAULT_DATABASE_URL,
  DEFAULT_IMPORTS,
  DEFAULT_LIMITS,
  DEFAULT_RATE_LIMIT,
  DEFAULT_REPLICA_MAX_LAG_MS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  LOG_FORMATS,
  type LogFormat,
} from './config-shape.js';

export { ConfigError, DEFAULT_SQLITE_READERS, parsePoolSize, parsePort } from './config-values.js';
export * from './config-shape.js';

// Configuration comes from the environment once, is checked, and is frozen: a bad value
// fails at start-up with a clear line, never mid-request.

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  const port = overrides.port ?? parsePort(env.PORT ?? '3000');
  const config: Config = {
    port,
    host: overrides.host ?? env.HOST ?? '127.0.0.1',
    databaseUrl: overrides.databaseUrl ?? databaseUrlOf(env),
    databasePoolSize: overrides.databasePoolSize ?? parsePoolSize(env.DATABASE_POOL_SIZE ?? '10'),
    databaseStatementTimeoutMs:
      overrides.databaseStatementTimeoutMs ??
      parseCount('DATABASE_STATEMENT_TIMEOUT_MS', env.DATABASE_STATEMENT_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS),
    databaseReplicaUrls: [],
    replicaMaxLagMs:
      overrides.replicaMaxLagMs ?? parseCount('REPLICA_MAX_LAG_MS', env.REPLICA_MAX_LAG_MS, DEFAULT_REPLICA_MAX_LAG_MS),
    sqliteReaders: overrides.sqliteReaders ?? parseReaders(env.SQLITE_READERS),
    demo: overrides.demo ?? env.STOREFRONT_DEMO !== '0',
    logLevel: overrides.logLevel ?? env.LOG_LEVEL ?? 'info',
    logFormat: overrides.logFormat ?? parseLogFormat(env.LOG_FORMAT),
    trustProxy: overrides.trustProxy ?? parseTrustProxy(env.TRUST_PROXY),
    metricsToken: overrides.metricsToken ?? (env.METRICS_TOKEN || undefined),
    cdnMaxAge: overrides.cdnMaxAge ?? (env.CDN_MAX_AGE ? parseCount('CDN_MAX_AGE', env.CDN_MAX_AGE, 0) : undefined),
    webhookAllowPrivate: overrides.webhookAllowPrivate ?? webhookAllowPrivate(env),
    changesRetentionDays: overrides.changesRetentionDays ?? parseRetentionDays(env.CHANGES_RETENTION_DAYS),
    noColor: overrides.noColor ?? Boolean(env.NO_COLOR),
    adminKeyHashes: overrides.adminKeyHashes ?? parseAdminKeyHashes(env.STOREFRONT_ADMIN_KEYS),
    rateLimit: overrides.rateLimit ?? loadRateLimit(env),
    limits: overrides.limits ?? loadLimits(env),
    caches: overrides.caches ?? loadCaches(env),
    imports: overrides.imports ?? {
      maxBytes: parseCount('IMPORT_MAX_BYTES', env.IMPORT_MAX_BYTES, DEFAULT_IMPORTS.maxBytes),
      spoolDir: env.IMPORT_SPOOL_DIR || DEFAULT_IMPORTS.spoolDir,
    },
    backups: overrides.backups ?? loadBackupConfig(env),
    streams: overrides.streams ?? loadStreamLimits(env),
  };
  config.databaseReplicaUrls =
    overrides.databaseReplicaUrls ?? parseReplicaUrls(env.DATABASE_REPLICA_URLS, config.databaseUrl);
  if (config.limits.headersTimeoutMs > config.limits.requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_MS must not be larger than REQUEST_TIMEOUT_MS');
  }
  if (config.rateLimit.redisUrl && !/^rediss?:\/\//.test(config.rateLimit.redisUrl)) {
    throw new ConfigError('REDIS_URL must start with redis:// or rediss://');
  }
  // Frozen all the way down (copies, so that a caller's overrides stay its own).
  config.rateLimit = Object.freeze({ ...config.rateLimit });
  config.limits = Object.freeze({ ...config.limits });
  config.caches = Object.freeze({ ...config.caches });
  config.imports = Object.freeze({ ...config.imports });
  return Object.freeze(config);
}

/** RATE_LIMIT*, REDIS_URL: the request budgets (src/plugins/rate-limit.ts). */
function loadRateLimit(env: NodeJS.ProcessEnv): Config['rateLimit'] {
  return {
    enabled: switchOf(env, 'RATE_LIMIT', true),
    addressMax: countOf(env, 'RATE_LIMIT_ADDRESS_MAX', DEFAULT_RATE_LIMIT.addressMax),
    keyMax: countOf(env, 'RATE_LIMIT_KEY_MAX', DEFAULT_RATE_LIMIT.keyMax),
    windowMs: countOf(env, 'RATE_LIMIT_WINDOW_MS', DEFAULT_RATE_LIMIT.windowMs),
    redisUrl: env.REDIS_URL || undefined,
  };
}

/** The server's timeouts and header size. */
function loadLimits(env: NodeJS.ProcessEnv): Config['limits'] {
  return {
    requestTimeoutMs: countOf(env, 'REQUEST_TIMEOUT_MS', DEFAULT_LIMITS.requestTimeoutMs),
    uploadIdleTimeoutMs: countOf(env, 'UPLOAD_IDLE_TIMEOUT_MS', DEFAULT_LIMITS.uploadIdleTimeoutMs),
    uploadMinBytesPerSecond: parseCountOrZero(
      'UPLOAD_MIN_BYTES_PER_SECOND',
      env.UPLOAD_MIN_BYTES_PER_SECOND,
      DEFAULT_LIMITS.uploadMinBytesPerSecond,
    ),
    headersTimeoutMs: countOf(env, 'HEADERS_TIMEOUT_MS', DEFAULT_LIMITS.headersTimeoutMs),
    keepAliveTimeoutMs: countOf(env, 'KEEP_ALIVE_TIMEOUT_MS', DEFAULT_LIMITS.keepAliveTimeoutMs),
    maxHeaderBytes: countOf(env, 'MAX_HEADER_BYTES', DEFAULT_LIMITS.maxHeaderBytes),
    shutdownTimeoutMs: countOf(env, 'SHUTDOWN_TIMEOUT_MS', DEFAULT_LIMITS.shutdownTimeoutMs),
  };
}

/** STOREFRONT_*_CACHE*: the answer, count and record caches. */
function loadCaches(env: NodeJS.ProcessEnv): Config['caches'] {
  return {
    answers: switchOf(env, 'STOREFRONT_ANSWER_CACHE', DEFAULT_CACHES.answers),
    answerBytes: countOf(env, 'STOREFRONT_ANSWER_CACHE_BYTES', DEFAULT_CACHES.answerBytes),
    counts: switchOf(env, 'STOREFRONT_COUNT_CACHE', DEFAULT_CACHES.counts),
    countEntries: countOf(env, 'STOREFRONT_COUNT_CACHE_ENTRIES', DEFAULT_CACHES.countEntries),
    records: switchOf(env, 'STOREFRONT_RECORD_CACHE', DEFAULT_CACHES.records),
    recordBytes: countOf(env, 'STOREFRONT_RECORD_CACHE_BYTES', DEFAULT_CACHES.recordBytes),
    searchIndexBytes: parseCountOrZero(
      'STOREFRONT_SEARCH_INDEX_BYTES',
      env.STOREFRONT_SEARCH_INDEX_BYTES,
      DEFAULT_CACHES.searchIndexBytes,
    ),
    searchThreads: parseCountOrZero(
      'STOREFRONT_SEARCH_THREADS',
      env.STOREFRONT_SEARCH_THREADS,
      DEFAULT_CACHES.searchThreads,
    ),
    searchThreadFrom: DEFAULT_CACHES.searchThreadFrom,
    brokenRecordVersions: env.STOREFRONT_BROKEN_RECORD_VERSIONS === '1',
    brokenAnswerReuse: env.STOREFRONT_BROKEN_ANSWER_REUSE === '1',
  };
}

/** A count setting of the environment, its variable named once (a bad value fails at start-up). */
function countOf(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return parseCount(name, env[name], fallback);
}

/** An on/off setting of the environment, its variable named once. */
function switchOf(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  return parseSwitch(name, env[name], fallback);
}

export const DEFAULT_CHANGES_RETENTION_DAYS = 30;

// Settings that every process needs, a server or a CLI command that builds no Config (import,
// delete, generate): each read from the environment once, at its first use, then kept.

/**
 * CHANGES_RETENTION_DAYS of this process: how long the change feed keeps deletions
 * (src/changes/retention.ts), for the CLI commands that delete (import, delete).
 */
export const changesRetentionDays = readOnce(() => parseRetentionDays(process.env.CHANGES_RETENTION_DAYS));

/**
 * FOR TESTS ONLY: STOREFRONT_BROKEN_CHANGE_ORDER=1 breaks the change log's order on purpose
 * (src/changes/ordering.ts); test/changes/convergence sets it for the processes it starts.
 */
export const brokenChangeOrder = readOnce(() => process.env.STOREFRONT_BROKEN_CHANGE_ORDER === '1');

/**
 * FOR TESTS ONLY: STOREFRONT_BROKEN_TYPE_VERSIONS=1 makes the write unit skip setting the
 * per-type versions the caches are keyed by (src/writes/type-versions.ts), so that cached
 * answers go stale; test/cache/never-stale sets it for a writer process it starts, to prove
 * that its staleness check fails then.
 */
export const brokenTypeVersions = readOnce(() => process.env.STOREFRONT_BROKEN_TYPE_VERSIONS === '1');

/** The storage URL a CLI command uses when not given --database: DATABASE_URL, then the SQLite default. */
export function databaseUrlOf(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

/** WEBHOOK_ALLOW_PRIVATE=1: webhook URLs may resolve to loopback, private and link-local addresses. */
export function webhookAllowPrivate(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.WEBHOOK_ALLOW_PRIVATE === '1';
}

/** `read`'s value, computed at the first call (a failed read throws, and is tried again). */
function readOnce<T>(read: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: read() }).v;
}

/** CHANGES_RETENTION_DAYS: whole days from 1 to 36500; unset or empty, the default. */
export function parseRetentionDays(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_CHANGES_RETENTION_DAYS;
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 36_500)
    throw new ConfigError(`CHANGES_RETENTION_DAYS must be a whole number of days from 1 to 36500, got "${value}"`);
  return Number(value);
}

function parseLogFormat(value: string | undefined): LogFormat {
  if (value === undefined || value === '') return 'auto';
  if ((LOG_FORMATS as readonly string[]).includes(value)) return value as LogFormat;
  throw new ConfigError(`LOG_FORMAT must be json, pretty or auto, got "${value}"`);
}

/** The format `auto` stands for on this output: pretty on a terminal, JSON lines anywhere else. */
export function resolveLogFormat(format: LogFormat, out: { isTTY?: boolean }): 'json' | 'pretty' {
  if (format !== 'auto') return format;
  return out.isTTY ? 'pretty' : 'json';
}
