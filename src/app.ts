import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { toolkitRoute } from './client/toolkit-route.js';
import type { Storage } from './db/connect.js';
import { ApiError } from './errors.js';
import { registerCaching } from './http/caching.js';
import { registerErrorHandling } from './http/errors-handler.js';
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
import { productRoutes } from './resources/products/routes.js';
import { Product } from './resources/products/schemas.js';
import { userRoutes } from './resources/users/routes.js';
import { User } from './resources/users/schemas.js';

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
    // Handles are up to 128 characters; longer path segments still reach the handlers,
    // which answer 404 for a record that cannot exist.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    frameworkErrors: (error, _request, reply) => {
      const apiError =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiError(404, 'not found')
          : new ApiError(400, error.code === 'FST_ERR_BAD_URL' ? 'the URL is not valid (bad percent-encoding)' : 'bad request');
      void (reply as unknown as FastifyReply).code(apiError.status).send(apiError.toBody());
    },
    ajv: {
      // Reject, never repair: unknown fields are a 400 (not silently dropped), types are not
      // coerced (query strings are converted strictly in coerceQuery), and every error is
      // reported with the schema it broke so that messages can name the rule.
      customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: true, verbose: true },
    },
  });
  app.decorate('storage', storage);
  // JSON is the only body this API reads: without Fastify's text/plain parser, any other
  // Content-Type is a 415 rather than a string that fails validation.
  app.removeContentTypeParser('text/plain');

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
  app.addHook('preValidation', async (request) => {
    coerceQuery(request);
    rejectNul(request.body, 'body');
  });
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.schema?.body && !request.headers['content-type']) {
      throw new ApiError(415, 'request body must be sent as Content-Type: application/json');
    }
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
