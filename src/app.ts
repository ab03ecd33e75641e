import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { registerAnswerCache } from './cache/answer-cache.js';
import { CountCache } from './cache/count-cache.js';
import { toolkitRoute } from './client/toolkit-route.js';
import { DEFAULT_LIMITS, DEFAULT_RATE_LIMIT, type LimitsConfig, type RateLimitConfig } from './config.js';
import type { Storage } from './db/connect.js';
import { ApiError } from './errors.js';
import { registerCaching } from './http/caching.js';
import { clientError, frameworkErrors, registerErrorHandling } from './http/errors-handler.js';
import { addMethodNotAllowedRoutes, collectRoutes } from './http/method-not-allowed.js';
import { registerProjectScope } from './http/project-scope.js';
import { ErrorBody } from './http/schemas.js';
import { coerceQuery, rejectNul } from './http/validation.js';
import { openapiPlugin } from './openapi/plugin.js';
import { categoryRoutes } from './resources/categories/routes.js';
import { Category } from './resources/categories/schemas.js';
import { orderRoutes } from './resources/orders/routes.js';
import { Order } from './resources/orders/schemas.js';
import { planRoutes } from './resources/plans/routes.js';
import { Plan } from './resources/plans/schemas.js';
import health from './plugins/health.js';
import idempotency from './plugins/idempotency.js';
import { loggerOptions } from './plugins/logging.js';
import metrics from './plugins/metrics.js';
import rateLimit from './plugins/rate-limit.js';
import requestIdHeader, { requestId } from './plugins/request-id.js';
import securityHeaders from './plugins/security-headers.js';
import { productRoutes } from './resources/products/routes.js';
import { Product } from './resources/products/schemas.js';
import { userRoutes } from './resources/users/routes.js';
import { User } from './resources/users/schemas.js';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
    /** exact totals per filter and data_version (src/cache/count-cache.ts) */
    counts: CountCache;
  }
}

export interface AppOptions {
  storage: Storage;
  logger?: FastifyServerOptions['logger'];
  /** defaults: DEFAULT_RATE_LIMIT, in memory; `false` turns limiting off */
  rateLimit?: Partial<RateLimitConfig> | false;
  /** an ioredis client for the shared rate-limit store (else one is made from rateLimit.redisUrl) */
  redis?: Redis;
  /** timeouts and header size (defaults: DEFAULT_LIMITS) */
  limits?: Partial<LimitsConfig>;
  /** honour X-Forwarded-For from this proxy setting (Fastify trustProxy) */
  trustProxy?: boolean | number | string;
  /** when set, /metrics needs this bearer token */
  metricsToken?: string;
}

export const BODY_LIMIT = 64 * 1024;

/** The whole HTTP API as a Fastify instance, not yet listening (tests use app.inject). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { storage, logger = false } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const app = Fastify({
    logger: loggerOptions(logger),
    genReqId: requestId,
    // a hop count is valid at run time (proxy-addr) though Fastify's types omit it
    trustProxy: (options.trustProxy ?? false) as boolean,
    bodyLimit: BODY_LIMIT,
    // Slow clients cannot hold connections: headers and the whole request must arrive in
    // bounded time, idle keep-alive sockets are closed, and headers are size-capped.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.requestTimeoutMs + 5_000,
    http: {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(limits.headersTimeoutMs, 1000),
    },
    // While closing, requests already on open connections are still answered (and get
    // `Connection: close`) rather than a bare 503 outside the error envelope.
    return503OnClosing: false,
    frameworkErrors,
    clientErrorHandler: clientError,
    // Handles are up to 128 characters; longer path segments still reach the handlers,
    // which answer 404 for a record that cannot exist.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    ajv: {
      // Reject, never repair: unknown fields are a 400 (not silently dropped), types are not
      // coerced (query strings are converted strictly in coerceQuery), and every error is
      // reported with the schema it broke so that messages can name the rule.
      customOptions: {
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: false,
        allErrors: true,
        verbose: true,
      },
    },
  });
  app.decorate('storage', storage);
  app.decorate('counts', new CountCache());
  // JSON is the only body this API reads: without Fastify's text/plain parser, any other
  // Content-Type is a 415 rather than a string that fails validation.
  app.removeContentTypeParser('text/plain');

  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'If-Match', 'Idempotency-Key', 'X-Request-Id'],
    exposedHeaders: [
      'ETag',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'RateLimit-Policy',
      'Retry-After',
      'X-Request-Id',
      'Idempotent-Replayed',
    ],
    maxAge: 86400,
    strictPreflight: false,
  });
  registerErrorHandling(app);
  await app.register(requestIdHeader);
  await app.register(securityHeaders);
  await app.register(metrics, { token: options.metricsToken, pool: storage.pool });
  await app.register(health);
  await app.register(rateLimit, {
    config:
      options.rateLimit === false
        ? { ...DEFAULT_RATE_LIMIT, enabled: false }
        : { ...DEFAULT_RATE_LIMIT, ...options.rateLimit },
    redis: options.redis,
  });
  await app.register(idempotency);
  // Before caching: its onSend hook must see the 200 answer before an ETag turns it into a 304.
  registerAnswerCache(app);
  registerCaching(app);
  // A plain callback, not an async hook: it runs on every request (see plugins/request-id.ts).
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      coerceQuery(request);
      rejectNul(request.body, 'body');
      if (request.routeOptions.schema?.body && !request.headers['content-type']) {
        throw new ApiError(415, 'request body must be sent as Content-Type: application/json');
      }
    } catch (error) {
      return done(error as Error);
    }
    done();
  });

  for (const schema of [ErrorBody, Product, Category, Plan, User, Order]) app.addSchema(schema);

  const routes = collectRoutes(app);
  // Before the routes: the OpenAPI document is collected from them as they are added.
  await app.register(openapiPlugin);
  await app.register(toolkitRoute);
  await app.register(
    async (scope) => {
      registerProjectScope(scope);
      await scope.register(planRoutes);
      await scope.register(categoryRoutes);
      await scope.register(productRoutes);
      await scope.register(userRoutes);
      await scope.register(orderRoutes);
    },
    { prefix: '/v2/projects/:project_id' },
  );
  await app.after();
  await addMethodNotAllowedRoutes(app, routes);
  return app;
}
