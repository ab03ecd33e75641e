import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigError,
  parseAdminKeyHashes,
  parseCount,
  parsePoolSize,
  parsePort,
  parseReaders,
  parseReplicaUrls,
  parseSwitch,
  parseTrustProxy,
} from './config-values.js';

export { ConfigError, DEFAULT_SQLITE_READERS, parsePoolSize, parsePort } from './config-values.js';

// Configuration comes from the environment once, is checked, and is frozen: a bad value
// fails at start-up with a clear line, never mid-request.

export interface RateLimitConfig {
  /** false turns rate limiting off (RATE_LIMIT=off) */
  enabled: boolean;
  /** requests per window from one client address, with or without a key */
  addressMax: number;
  /** requests per window made with one API key, from any address */
  keyMax: number;
  /** the window, in milliseconds */
  windowMs: number;
  /** when set, the counters live in Redis and every process shares one budget */
  redisUrl?: string;
}

export interface LimitsConfig {
  /** the whole request (headers and body) must arrive within this many milliseconds; not import uploads */
  requestTimeoutMs: number;
  /**
   * an import upload's body is bounded by progress instead: it fails when no byte of it arrives
   * for this many milliseconds (UPLOAD_IDLE_TIMEOUT_MS)
   */
  uploadIdleTimeoutMs: number;
  /** the request headers must arrive within this many milliseconds (slow-loris) */
  headersTimeoutMs: number;
  /** an idle keep-alive connection is closed after this many milliseconds */
  keepAliveTimeoutMs: number;
  /** the request line and headers together may not exceed this many bytes */
  maxHeaderBytes: number;
  /** SIGTERM/SIGINT: requests in flight get this long to finish before the process exits */
  shutdownTimeoutMs: number;
}

export interface CacheConfig {
  /** keep whole answers (products lists, single products, orders lists) in memory (STOREFRONT_ANSWER_CACHE) */
  answers: boolean;
  /** most bytes of answers kept (STOREFRONT_ANSWER_CACHE_BYTES) */
  answerBytes: number;
  /** keep exact list totals per filter (STOREFRONT_COUNT_CACHE) */
  counts: boolean;
  /** most totals kept (STOREFRONT_COUNT_CACHE_ENTRIES) */
  countEntries: number;
  /** keep each product's presented JSON, by its own version (STOREFRONT_RECORD_CACHE) */
  records: boolean;
  /** most bytes of presented products kept (STOREFRONT_RECORD_CACHE_BYTES) */
  recordBytes: number;
  /**
   * FOR TESTS ONLY (STOREFRONT_BROKEN_RECORD_VERSIONS=1): the record cache keys each product
   * without its version, so that it hands out a product's first presented JSON forever;
   * test/cache/never-stale sets it to prove that its staleness check fails then.
   */
  brokenRecordVersions: boolean;
  /**
   * FOR TESTS ONLY (STOREFRONT_BROKEN_ANSWER_REUSE=1): a products answer is sent again at any
   * later products_version, as if none of its products had changed (src/cache/product-changes.ts);
   * test/cache/never-stale sets it to prove that its staleness check fails then.
   */
  brokenAnswerReuse: boolean;
}

export interface ImportsConfig {
  /** the largest upload accepted, in bytes (IMPORT_MAX_BYTES, default 512 MiB); larger is a 413 */
  maxBytes: number;
  /** where uploads wait until their import has run (IMPORT_SPOOL_DIR, default <tmpdir>/storefront-imports) */
  spoolDir: string;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** PostgreSQL: most connections one process opens (DATABASE_POOL_SIZE) */
  databasePoolSize: number;
  /**
   * PostgreSQL: a statement of a serving process running longer is cancelled and its request
   * answers 503 (DATABASE_STATEMENT_TIMEOUT_MS), so that no query holds a connection for long
   */
  databaseStatementTimeoutMs: number;
  /** PostgreSQL: streaming standbys that serve reads (DATABASE_REPLICA_URLS, comma-separated; none: the primary serves all) */
  databaseReplicaUrls: readonly string[];
  /** a replica lagging more than this many milliseconds is left out until it catches up (REPLICA_MAX_LAG_MS, default 5000) */
  replicaMaxLagMs: number;
  /** SQLite file: reader threads beside one writer thread; 0 runs every query on the main thread (SQLITE_READERS) */
  sqliteReaders: number;
  demo: boolean;
  logLevel: string;
  /** LOG_FORMAT: `pretty` (one readable line a request), `json` (pino lines), or `auto`: pretty when stdout is a terminal */
  logFormat: LogFormat;
  /** honour X-Forwarded-For from a proxy in front (TRUST_PROXY=true, a hop count, or trusted addresses) */
  trustProxy: boolean | number | string;
  /** when set, GET /metrics needs Authorization: Bearer <this token> */
  metricsToken?: string;
  /** seconds a CDN may serve a public answer before asking again (CDN_MAX_AGE; unset: no CDN-Cache-Control) */
  cdnMaxAge?: number;
  /** WEBHOOK_ALLOW_PRIVATE=1: webhook endpoints may be loopback, private or link-local addresses */
  webhookAllowPrivate: boolean;
  /** deletions stay in the change feed at least this many days (CHANGES_RETENTION_DAYS, default 30) */
  changesRetentionDays: number;
  /** NO_COLOR (any value): the pretty log format writes no colours */
  noColor: boolean;
  /** STOREFRONT_ADMIN_KEYS: admin keys' SHA-256 hashes (hex, comma-separated), beside the stored ones */
  adminKeyHashes: readonly string[];
  rateLimit: RateLimitConfig;
  limits: LimitsConfig;
  caches: CacheConfig;
  imports: ImportsConfig;
}

export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const DEFAULT_DATABASE_URL = 'sqlite:./data/storefront.db';

// Far above any query of a request (exact totals are kept, pages read by index: milliseconds
// at a million products), far below what would let a runaway query hold a pool's connection.
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;
/** REPLICA_MAX_LAG_MS's default (CONTRACT 16) */
export const DEFAULT_REPLICA_MAX_LAG_MS = 5000;

// Generous on purpose: a static-site build paging a catalog of 100,000 products (1,000
// pages of 100) from one address stays well inside one minute's address budget.
export const DEFAULT_RATE_LIMIT: RateLimitConfig = Object.freeze({
  enabled: true,
  addressMax: 3000,
  keyMax: 6000,
  windowMs: 60_000,
});

export const DEFAULT_LIMITS: LimitsConfig = Object.freeze({
  requestTimeoutMs: 30_000,
  uploadIdleTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  shutdownTimeoutMs: 10_000,
});

// Both are keyed by the versions of what each answer shows (src/cache/versioned-key.ts), so
// they never serve stale data; off, they let the bench
// measure the queries alone.
export const DEFAULT_CACHES: CacheConfig = Object.freeze({
  answers: true,
  answerBytes: 32 * 1024 * 1024,
  counts: true,
  countEntries: 10_000,
  records: true,
  recordBytes: 64 * 1024 * 1024,
  brokenRecordVersions: false,
  brokenAnswerReuse: false,
});

export const DEFAULT_IMPORTS: ImportsConfig = Object.freeze({
  maxBytes: 512 * 1024 * 1024,
  spoolDir: join(tmpdir(), 'storefront-imports'),
});

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
    rateLimit: overrides.rateLimit ?? {
      enabled: parseSwitch('RATE_LIMIT', env.RATE_LIMIT, true),
      addressMax: parseCount('RATE_LIMIT_ADDRESS_MAX', env.RATE_LIMIT_ADDRESS_MAX, DEFAULT_RATE_LIMIT.addressMax),
      keyMax: parseCount('RATE_LIMIT_KEY_MAX', env.RATE_LIMIT_KEY_MAX, DEFAULT_RATE_LIMIT.keyMax),
      windowMs: parseCount('RATE_LIMIT_WINDOW_MS', env.RATE_LIMIT_WINDOW_MS, DEFAULT_RATE_LIMIT.windowMs),
      redisUrl: env.REDIS_URL || undefined,
    },
    limits: overrides.limits ?? {
      requestTimeoutMs: parseCount('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, DEFAULT_LIMITS.requestTimeoutMs),
      uploadIdleTimeoutMs: parseCount(
        'UPLOAD_IDLE_TIMEOUT_MS',
        env.UPLOAD_IDLE_TIMEOUT_MS,
        DEFAULT_LIMITS.uploadIdleTimeoutMs,
      ),
      headersTimeoutMs: parseCount('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, DEFAULT_LIMITS.headersTimeoutMs),
      keepAliveTimeoutMs: parseCount(
        'KEEP_ALIVE_TIMEOUT_MS',
        env.KEEP_ALIVE_TIMEOUT_MS,
        DEFAULT_LIMITS.keepAliveTimeoutMs,
      ),
      maxHeaderBytes: parseCount('MAX_HEADER_BYTES', env.MAX_HEADER_BYTES, DEFAULT_LIMITS.maxHeaderBytes),
      shutdownTimeoutMs: parseCount('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, DEFAULT_LIMITS.shutdownTimeoutMs),
    },
    caches: overrides.caches ?? {
      answers: parseSwitch('STOREFRONT_ANSWER_CACHE', env.STOREFRONT_ANSWER_CACHE, DEFAULT_CACHES.answers),
      answerBytes: parseCount(
        'STOREFRONT_ANSWER_CACHE_BYTES',
        env.STOREFRONT_ANSWER_CACHE_BYTES,
        DEFAULT_CACHES.answerBytes,
      ),
      counts: parseSwitch('STOREFRONT_COUNT_CACHE', env.STOREFRONT_COUNT_CACHE, DEFAULT_CACHES.counts),
      countEntries: parseCount(
        'STOREFRONT_COUNT_CACHE_ENTRIES',
        env.STOREFRONT_COUNT_CACHE_ENTRIES,
        DEFAULT_CACHES.countEntries,
      ),
      records: parseSwitch('STOREFRONT_RECORD_CACHE', env.STOREFRONT_RECORD_CACHE, DEFAULT_CACHES.records),
      recordBytes: parseCount(
        'STOREFRONT_RECORD_CACHE_BYTES',
        env.STOREFRONT_RECORD_CACHE_BYTES,
        DEFAULT_CACHES.recordBytes,
      ),
      brokenRecordVersions: env.STOREFRONT_BROKEN_RECORD_VERSIONS === '1',
      brokenAnswerReuse: env.STOREFRONT_BROKEN_ANSWER_REUSE === '1',
    },
    imports: overrides.imports ?? {
      maxBytes: parseCount('IMPORT_MAX_BYTES', env.IMPORT_MAX_BYTES, DEFAULT_IMPORTS.maxBytes),
      spoolDir: env.IMPORT_SPOOL_DIR || DEFAULT_IMPORTS.spoolDir,
    },
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
