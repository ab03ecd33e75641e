import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { FastifyHttpOptions, FastifyServerOptions, LogController } from 'fastify';
import type { LimitsConfig } from '../config.js';
import { BODY_LIMIT } from './body-limits.js';
import { clientError, frameworkErrors } from './early-errors.js';
import { loggerOptions } from './logger-options.js';

// The options Fastify is made with: what the server does before any plugin or hook runs.

// A caller's X-Request-Id is kept when it is well formed; anything else (too long, control
// characters, spaces that could forge log lines) is replaced by a fresh UUID
// (src/plugins/request-id.ts sends it back).
const WELL_FORMED_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && WELL_FORMED_ID.test(given) ? given : randomUUID();
}

export function serverOptions(options: {
  logger: FastifyServerOptions['logger'];
  /** how requests are logged (src/http/pretty-logs.ts); default: Fastify's two JSON objects per request */
  logController?: LogController;
  limits: LimitsConfig;
  trustProxy: boolean | number | string;
}): FastifyHttpOptions<Server> {
  const { limits } = options;
  return {
    logger: loggerOptions(options.logger),
    logController: options.logController,
    genReqId: requestId,
    // a hop count is valid at run time (proxy-addr) though Fastify's types omit it
    trustProxy: options.trustProxy as boolean,
    bodyLimit: BODY_LIMIT,
    // Slow clients cannot hold connections: headers and the whole request must arrive in
    // bounded time (an import upload: no pause longer than its idle limit, see
    // src/http/progress-bounded-bodies.ts), idle keep-alive sockets are closed, and headers
    // are size-capped. A socket silent for longer than any of these is destroyed (an import's
    // `Prefer: wait` lengthens that for its own socket).
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: Math.max(limits.requestTimeoutMs, limits.uploadIdleTimeoutMs) + 5_000,
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
  };
}
