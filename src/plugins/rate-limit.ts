import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { RateLimitConfig } from '../config.js';
import { ApiError } from '../errors.js';

// Two budgets per window (docs/API.md, "Rate limits"; 429 rate_limited):
// - every request counts against its client address, checked first (onRequest), so that
//   made-up keys cannot buy a fresh budget;
// - a request whose key was accepted also counts against that key (preValidation, after the
//   project scope has checked it), so that one key spread over many addresses is bounded.
// The counters live in memory, or in Redis when a URL is given, so that every process
// shares one budget. Redis trouble never fails a request: the store errors are skipped
// (fail open) and commands never wait for a connection (no offline queue, short timeouts).

type Check = (
  request: FastifyRequest,
) => Promise<{ max: number; remaining: number; ttlInSeconds: number; isExceeded: boolean; isAllowed: boolean }>;

/**
 * Never limited: the operational endpoints (probes and scrapers poll them from one address),
 * and what is static and cheap to serve: the index, the reference page with its assets and
 * document, and the browser toolkit. A visitor reading /docs, or every page of a shop loading
 * /toolkit.js, must not spend the budget that the same address needs for API calls.
 */
const UNLIMITED = /^\/(healthz|readyz|metrics|toolkit\.js|v2\/openapi\.json|docs(\/.*)?)?\/?$/;

export function isUnlimited(path: string): boolean {
  return UNLIMITED.test(path);
}

export function createRedis(url: string): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 500,
    commandTimeout: 250,
    lazyConnect: false,
    // Keep trying to reconnect in the background, never faster than every 0.2 s and never
    // slower than every 2 s, so that limits come back soon after Redis does.
    retryStrategy: (times) => Math.min(200 * times, 2000),
  });
  return redis;
}

export default fp(
  async function rateLimitPlugin(app: FastifyInstance, options: { config: RateLimitConfig; redis?: Redis }) {
    const { config } = options;
    if (!config.enabled) return;

    let redis = options.redis;
    if (!redis && config.redisUrl) {
      redis = createRedis(config.redisUrl);
      app.addHook('onClose', async () => {
        redis?.disconnect();
      });
    }
    if (redis) {
      // An outage is reported once per change of state, not once per request.
      let down = false;
      redis.on('error', (err: Error) => {
        if (!down)
          app.log.warn(
            { err: { message: err.message } },
            'rate limit store unavailable; requests are not limited until it is back',
          );
        down = true;
      });
      redis.on('ready', () => {
        if (down) app.log.info('rate limit store is back');
        down = false;
      });
    }

    await app.register(rateLimit, {
      global: false,
      skipOnError: true,
      timeWindow: config.windowMs,
      nameSpace: 'storefront-rl:',
      ...(redis ? { redis } : {}),
    });

    const byAddress = app.createRateLimit({
      max: config.addressMax,
      keyGenerator: (request) => `a:${normalizeIP(request.ip)}`,
    }) as unknown as Check;
    const byKey = app.createRateLimit({
      max: config.keyMax,
      keyGenerator: (request) => `k:${request.apiKeyId}`,
    }) as unknown as Check;
    const policy = (max: number) => `${max};w=${Math.ceil(config.windowMs / 1000)}`;

    app.addHook('onRequest', async (request, reply) => {
      if (isUnlimited(request.url.split('?')[0])) return;
      apply(reply, await byAddress(request), policy(config.addressMax), 'this address');
    });
    app.addHook('preValidation', async (request, reply) => {
      if (request.apiKeyId == null) return; // no key, or not a project route
      const result = await byKey(request);
      // Report whichever budget runs out first.
      const shown = Number(reply.getHeader('ratelimit-remaining') ?? Infinity);
      if (result.isExceeded || result.remaining < shown) apply(reply, result, policy(config.keyMax), 'this API key');
    });
  },
  { name: 'rate-limit', dependencies: ['project-scope'] },
);

function apply(reply: FastifyReply, result: Awaited<ReturnType<Check>>, policy: string, who: string): void {
  if (result.isAllowed) return;
  reply.header('ratelimit-limit', result.max);
  reply.header('ratelimit-remaining', result.isExceeded ? 0 : result.remaining);
  reply.header('ratelimit-reset', result.ttlInSeconds);
  reply.header('ratelimit-policy', policy);
  if (result.isExceeded) {
    const retryAfter = Math.max(1, result.ttlInSeconds);
    reply.header('retry-after', retryAfter);
    throw new ApiError(429, `too many requests from ${who}; retry in ${retryAfter} s`);
  }
}
