import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackupConfig } from './config-backups.js';
import type { StreamLimits } from './config-streams.js';

// The shape of the configuration and its defaults (config.ts reads the environment into it).

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
  /** an import upload slower than this many bytes a second over a 10 s window fails (UPLOAD_MIN_BYTES_PER_SECOND; 0: no minimum) */
  uploadMinBytesPerSecond: number;
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
  /** most bytes of shopper search's match indexes kept, 0: none, `q` in SQL (STOREFRONT_SEARCH_INDEX_BYTES) */
  searchIndexBytes: number;
  /** threads computing answers from the match indexes of large projects, 0: on the event loop (STOREFRONT_SEARCH_THREADS) */
  searchThreads: number;
  /** products from which a project's answers are computed in a search thread (smaller ones cost less than the hand-over); tests set 0 */
  searchThreadFrom: number;
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
  rateLimit: RateLimitConfig;
  limits: LimitsConfig;
  caches: CacheConfig;
  imports: ImportsConfig;
  /** serve's own backups: BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP (config-backups.ts) */
  backups: BackupConfig;
  /** EXPORT_MAX_SECONDS (config-streams.ts) */
  streams: StreamLimits;
  /** STOREFRONT_ADMIN_KEYS: admin keys' SHA-256 hashes (hex, comma-separated), beside the stored ones */
  adminKeyHashes: readonly string[];
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
  uploadMinBytesPerSecond: 500,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  shutdownTimeoutMs: 10_000,
});

// Both are keyed by the versions of what each answer shows (src/cache/invalidation.ts), so
// they never serve stale data; off, they let the bench
// measure the queries alone.
export const DEFAULT_CACHES: CacheConfig = Object.freeze({
  answers: true,
  answerBytes: 32 * 1024 * 1024,
  counts: true,
  countEntries: 10_000,
  records: true,
  recordBytes: 64 * 1024 * 1024,
  searchIndexBytes: 256 * 1024 * 1024,
  // A thread a core, at most four: the event loop mostly waits on them (docs/PERFORMANCE.md, "Search threads").
  searchThreads: Math.min(4, availableParallelism()),
  searchThreadFrom: 20_000,
  brokenRecordVersions: false,
  brokenAnswerReuse: false,
});

export const DEFAULT_IMPORTS: ImportsConfig = Object.freeze({
  maxBytes: 512 * 1024 * 1024,
  spoolDir: join(tmpdir(), 'storefront-imports'),
});
