import type { BackupState } from './backups/schedule.js';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { consoleRoute } from './client/console-route.js';
import { toolkitRoute } from './client/toolkit-route.js';
import {
  type CacheConfig,
  DEFAULT_CACHES,
  DEFAULT_LIMITS,
  DEFAULT_RATE_LIMIT,
  type LimitsConfig,
  type RateLimitConfig,
} from './config.js';
import type { Storage } from './db/connect.js';
import { ErrorBody } from './http/schemas.js';
import { OneLinePerRequest, prettyLogger } from './http/pretty-logs.js';
import { serverOptions } from './http/server-options.js';
import { openapiPlugin } from './openapi/plugin.js';
import adminScope from './plugins/admin-scope.js';
import answerCache from './plugins/answer-cache.js';
import cdnTags from './plugins/cdn-tags.js';
import cors from './plugins/cors.js';
import errorHandler from './plugins/error-handler.js';
import health from './plugins/health.js';
import httpCaching from './plugins/http-caching.js';
import idempotency from './plugins/idempotency.js';
import imports, { type ImportOptions } from './plugins/imports.js';
import metrics from './plugins/metrics.js';
import { methodNotAllowed, servedMethods } from './plugins/method-not-allowed.js';
import projectScope, { PROJECT_ROUTES } from './plugins/project-scope.js';
import rateLimit from './plugins/rate-limit.js';
import requestId from './plugins/request-id.js';
import securityHeaders from './plugins/security-headers.js';
import serviceIndex from './plugins/service-index.js';
import storagePlugin from './plugins/storage.js';
import strictInput from './plugins/strict-input.js';
import webhooks, { type WebhookOptions } from './plugins/webhooks.js';
import { categoryRoutes } from './resources/categories/routes.js';
import { adminRoutes } from './resources/projects/admin-routes.js';
import { AdminProject } from './resources/projects/admin-schemas.js';
import { projectRoutes } from './resources/projects/routes.js';
import { Category, FeedCategory } from './resources/categories/schemas.js';
import { changeRoutes } from './resources/changes/routes.js';
import { CHANGE_ENTRIES } from './resources/changes/schemas.js';
import { exportLinkRoutes } from './resources/exports/link-routes.js';
import { exportRoutes } from './resources/exports/routes.js';
import { importRoutes } from './resources/imports/routes.js';
import { Import } from './resources/imports/schemas.js';
import { keyRoutes } from './resources/keys/routes.js';
import { CurrentKey, Key } from './resources/keys/schemas.js';
import { orderRoutes } from './resources/orders/routes.js';
import { Order } from './resources/orders/schemas.js';
import { planRoutes } from './resources/plans/routes.js';
import { Plan } from './resources/plans/schemas.js';
import { productRoutes } from './resources/products/routes.js';
import { Product } from './resources/products/schemas.js';
import { userRoutes } from './resources/users/routes.js';
import { webhookRoutes } from './resources/webhooks/routes.js';
import { WebhookEndpoint } from './resources/webhooks/schemas.js';
import { User } from './resources/users/schemas.js';

export interface AppOptions {
  storage: Storage;
  logger?: FastifyServerOptions['logger'];
  /** `pretty`: readable lines, one per request (src/http/pretty-logs.ts); default `json`, pino's lines */
  logFormat?: 'json' | 'pretty';
  /** defaults: DEFAULT_RATE_LIMIT, in memory; `false` turns limiting off */
  rateLimit?: Partial<RateLimitConfig> | false;
  /** an ioredis client for the shared rate-limit store (else one is made from rateLimit.redisUrl) */
  redis?: Redis;
  /** timeouts and header size (defaults: DEFAULT_LIMITS) */
  limits?: Partial<LimitsConfig>;
  /** the answer and count caches (defaults: DEFAULT_CACHES, both on) */
  caches?: Partial<CacheConfig>;
  /** honour X-Forwarded-For from this proxy setting (Fastify trustProxy) */
  trustProxy?: boolean | number | string;
  /** when set, /metrics needs this bearer token */
  metricsToken?: string;
  /** an export still being read after this many seconds is ended, incomplete (EXPORT_MAX_SECONDS) */
  exportMaxSeconds?: number;
  /** serve's own backups (BACKUP_DIR): /metrics and /readyz report them */
  backups?: BackupState;
  /** the clock keys expire by, in unix seconds (tests control it; default: the system's) */
  now?: () => number;
  /** webhooks: the delivery worker (serve runs it), the address rule, the retry clock */
  webhooks?: WebhookOptions;
  /** CDN_MAX_AGE: public answers also carry CDN-Cache-Control with this lifetime, in seconds */
  cdnMaxAge?: number;
  /** NO_COLOR: the pretty format writes no colours (a terminal gets them otherwise) */
  noColor?: boolean;
  /**
   * FOR TESTS ONLY: the change feed reads as with STOREFRONT_BROKEN_CHANGE_ORDER=1
   * (src/changes/ordering.ts); default, this process's setting
   */
  brokenChangeOrder?: boolean;
  /** imports over HTTP: the job runner (serve runs it), IMPORT_MAX_BYTES, the spool directory */
  imports?: ImportOptions;
  /** STOREFRONT_ADMIN_KEYS: admin keys' hashes accepted beside those stored (src/keys/admin.ts) */
  adminKeyHashes?: readonly string[];
}

/** The whole HTTP API as a Fastify instance, not yet listening (tests use app.inject). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const caches = { ...DEFAULT_CACHES, ...options.caches };
  const pretty = options.logFormat === 'pretty' && Boolean(options.logger);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const app = Fastify(
    serverOptions({
      logger: pretty ? await prettyLogger(options.logger, options.noColor ?? false) : (options.logger ?? false),
      logController: pretty ? new OneLinePerRequest() : undefined,
      limits,
      trustProxy: options.trustProxy ?? false,
    }),
  );

  await registerPipeline(app, options, caches, limits);
  await registerRoutes(app, options);
  await app.register(methodNotAllowed);
  return app;
}

/**
 * The request pipeline, in boot order (docs/ARCHITECTURE.md, "The request pipeline"). Hooks
 * of one kind run in the order they are registered here; each plugin names the ones it needs
 * in its `dependencies`, so that Fastify refuses to start when this order breaks them.
 */
async function registerPipeline(
  app: FastifyInstance,
  options: AppOptions,
  caches: CacheConfig,
  limits: LimitsConfig,
): Promise<void> {
  const { storage } = options;
  await app.register(storagePlugin, { storage, caches });
  await app.register(cors);
  await app.register(errorHandler);
  await app.register(requestId);
  await app.register(securityHeaders);
  const { backups } = options;
  await app.register(metrics, { token: options.metricsToken, pool: storage.pool, replicas: storage.replicas, backups });
  await app.register(health, { backups });
  await app.register(webhooks, options.webhooks ?? {});
  await app.register(imports, {
    idleTimeoutMs: limits.uploadIdleTimeoutMs,
    minBytesPerSecond: limits.uploadMinBytesPerSecond,
    ...options.imports,
  });
  await app.register(serviceIndex);
  await app.register(projectScope, { now: options.now });
  await app.register(adminScope, { adminKeyHashes: options.adminKeyHashes });
  await app.register(rateLimit, {
    config:
      options.rateLimit === false
        ? { ...DEFAULT_RATE_LIMIT, enabled: false }
        : { ...DEFAULT_RATE_LIMIT, ...options.rateLimit },
    redis: options.redis,
  });
  await app.register(idempotency);
  await app.register(cdnTags);
  await app.register(answerCache, { caches });
  await app.register(httpCaching, { cdnMaxAge: options.cdnMaxAge });
  await app.register(strictInput);
}

/**
 * The routes. Those added from here on get a 405 for the methods their path lacks, and are
 * in the OpenAPI document (collected as they are added).
 */
async function registerRoutes(app: FastifyInstance, options: AppOptions): Promise<void> {
  for (const schema of [
    ErrorBody,
    Product,
    Category,
    FeedCategory,
    Plan,
    User,
    Order,
    Key,
    CurrentKey,
    WebhookEndpoint,
    Import,
    AdminProject,
    ...CHANGE_ENTRIES,
  ])
    app.addSchema(schema);
  await app.register(servedMethods);
  await app.register(openapiPlugin);
  await app.register(toolkitRoute);
  await app.register(consoleRoute);
  await app.register(adminRoutes, { prefix: '/v2/projects' });
  await app.register(
    async (scope) => {
      await scope.register(projectRoutes);
      await scope.register(planRoutes);
      await scope.register(categoryRoutes);
      await scope.register(productRoutes);
      await scope.register(userRoutes);
      await scope.register(orderRoutes);
      await scope.register(keyRoutes);
      await scope.register(webhookRoutes);
      await scope.register(changeRoutes, { brokenOrder: options.brokenChangeOrder });
      await scope.register(importRoutes);
      await scope.register(exportRoutes, { maxSeconds: options.exportMaxSeconds });
      await scope.register(exportLinkRoutes);
    },
    { prefix: PROJECT_ROUTES },
  );
}
