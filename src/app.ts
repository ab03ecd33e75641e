import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Storage } from './db/connect.js';
import { registerCaching } from './http/caching.js';
import { registerErrorHandling } from './http/errors-handler.js';
import { addMethodNotAllowedRoutes, collectRoutes } from './http/method-not-allowed.js';
import { registerProjectScope } from './http/project-scope.js';
import { ErrorBody } from './http/schemas.js';
import { refuseNul } from './http/text-rules.js';
import { coerceQuery } from './http/validation.js';
import { categoryRoutes } from './resources/categories/routes.js';
import { Category } from './resources/categories/schemas.js';
import { planRoutes } from './resources/plans/routes.js';
import { Plan } from './resources/plans/schemas.js';
import { productRoutes } from './resources/products/routes.js';
import { Product } from './resources/products/schemas.js';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

export interface AppOptions {
  storage: Storage;
  logger?: FastifyServerOptions['logger'];
}

export const BODY_LIMIT = 64 * 1024;

/** The whole HTTP API as a Fastify instance, not yet listening (tests use app.inject). */
export async function buildApp({ storage, logger = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
    ajv: {
      // Reject, never repair: unknown fields are a 400 (not silently dropped), types are not
      // coerced (query strings are converted strictly in coerceQuery), and every error is
      // reported with the schema it broke so that messages can name the rule.
      customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: true, verbose: true },
    },
  });
  app.decorate('storage', storage);

  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'If-Match'],
    exposedHeaders: ['ETag', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Retry-After'],
    maxAge: 86400,
    strictPreflight: false,
  });
  registerErrorHandling(app);
  registerCaching(app);
  app.addHook('preValidation', async (request) => coerceQuery(request));
  app.addHook('preValidation', refuseNul);
  app.addHook('preValidation', async (request) => {
    if (request.method === 'POST' && !request.headers['content-type']) {
      const { ApiError } = await import('./errors.js');
      throw new ApiError(415, 'request body must be sent as Content-Type: application/json');
    }
  });

  for (const schema of [ErrorBody, Product, Category, Plan]) app.addSchema(schema);

  const routes = collectRoutes(app);
  await app.register(
    async (scope) => {
      registerProjectScope(scope);
      await scope.register(planRoutes);
      await scope.register(categoryRoutes);
      await scope.register(productRoutes);
    },
    { prefix: '/v2/projects/:project_id' },
  );
  await app.after();
  addMethodNotAllowedRoutes(app, routes);
  return app;
}
