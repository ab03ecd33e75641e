import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { cleanDocument } from './clean.js';
import { API_DESCRIPTION, SERVERS, TAGS } from './description.js';
import { documentRoute } from './transform.js';
import { VERSION } from '../version.js';

// The OpenAPI document is made by @fastify/swagger from the route schemas themselves, so it
// cannot drift from what is validated and serialised. Register this plugin before any route:
// swagger collects routes as they are added.

export const OPENAPI_PATH = '/v2/openapi.json';
export const DOCS_PATH = '/docs';

const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  // Swagger UI sets a few inline styles; inline styles cannot fetch anything.
  "style-src 'self' 'unsafe-inline'",
].join('; ');

async function openapi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Storefront API',
        version: VERSION,
        description: API_DESCRIPTION,
        license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      },
      tags: TAGS,
      servers: SERVERS,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: "a project's API key, sent as Authorization: Bearer <key>",
          },
          adminKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'an admin key (sfa_…, `storefront admin-key create`), sent as Authorization: Bearer <key>',
          },
        },
      },
    },
    // Shared schemas keep their $id as their name under components/schemas.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: documentRoute,
    transformObject: (document) =>
      cleanDocument((document as { openapiObject: Record<string, unknown> }).openapiObject),
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());

  // Swagger UI's files come from the package itself (no CDN: the page works offline). The
  // CSP makes the browser refuse anything from another origin; it replaces the plugin's
  // default, which allows https: styles and fonts and sends upgrade-insecure-requests (that
  // would break /docs served over plain http on any host but localhost).
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: true,
    transformStaticCSP: () => DOCS_CSP,
    theme: { title: 'Storefront API reference' },
    uiConfig: { deepLinking: true, docExpansion: 'list', validatorUrl: null, tryItOutEnabled: false },
  });
}

export const openapiPlugin = fp(openapi, { name: 'openapi', fastify: '5.x' });
