import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BackupState } from '../backups/schedule.js';
import type { ReplicaSet } from '../db/replicas.js';
import { ApiError } from '../errors.js';
import { backupMetrics } from './backup-metrics.js';
import { replicaMetrics } from './replica-metrics.js';

// Prometheus metrics at /metrics. Each app has its own registry (tests build many apps in
// one process). Routes are labelled by their pattern, never the raw URL, so that the number
// of series stays bounded whatever clients send. Nothing is labelled by project or key:
// /metrics is open unless METRICS_TOKEN is set, and which keys exist and how busy each is
// belongs to the project's own key list (`last_used_at`), not to whoever can reach the port
// (keys made over HTTP would also add a series each, for the life of the process).

export interface Metrics {
  registry: Registry;
  /** count a cache hit: `app.metrics.cacheHits.inc({ cache: 'name' })` */
  cacheHits: Counter<'cache'>;
  /** count a cache miss, beside the hits, so that a hit ratio can be computed */
  cacheMisses: Counter<'cache'>;
}

export interface PoolStats {
  total(): number;
  idle(): number;
  waiting(): number;
}

export default fp(
  async function metricsPlugin(
    app: FastifyInstance,
    options: {
      token?: string;
      pool?: PoolStats;
      replicas?: ReplicaSet;
      backups?: BackupState;
      defaultMetrics?: boolean;
    },
  ) {
    const registry = new Registry();
    if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
    const labelNames = ['method', 'route', 'status'] as const;
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered',
      labelNames,
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to answer',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const cacheHits = new Counter({
      name: 'storefront_cache_hits_total',
      help: 'Cache hits by cache',
      labelNames: ['cache'],
      registers: [registry],
    });
    const cacheMisses = new Counter({
      name: 'storefront_cache_misses_total',
      help: 'Cache misses by cache',
      labelNames: ['cache'],
      registers: [registry],
    });
    if (options.pool) poolMetrics(registry, options.pool);
    if (options.replicas) replicaMetrics(registry, options.replicas);
    if (options.backups) backupMetrics(registry, options.backups);
    app.decorate('metrics', { registry, cacheHits, cacheMisses });

    app.addHook('onResponse', (request, reply, done) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
      // An ETag revalidation that saved sending the body is the HTTP cache's hit.
      if (request.method === 'GET' || request.method === 'HEAD') {
        if (reply.statusCode === 304) cacheHits.inc({ cache: 'http_etag' });
        else if (request.headers['if-none-match'] && reply.statusCode === 200) cacheMisses.inc({ cache: 'http_etag' });
      }
      done();
    });

    // Scrapers are servers, not browser pages: no CORS header (src/plugins/cors.ts).
    app.get('/metrics', { config: { cors: false } }, async (request, reply) => {
      if (options.token && !sameSecret(request.headers.authorization ?? '', `Bearer ${options.token}`)) {
        throw new ApiError(401, 'metrics need Authorization: Bearer <METRICS_TOKEN>');
      }
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'metrics' },
);

/** The PostgreSQL pool's gauges, read when scraped. */
function poolMetrics(registry: Registry, pool: PoolStats): void {
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('storefront_db_pool_connections', 'Open PostgreSQL connections', () => pool.total());
  gauge('storefront_db_pool_idle', 'Idle PostgreSQL connections', () => pool.idle());
  gauge('storefront_db_pool_waiting', 'Queries waiting for a PostgreSQL connection', () => pool.waiting());
}

/** Compares digests, so that neither the length nor the content of the token leaks through timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
