import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DOCS_PATH, OPENAPI_PATH } from '../openapi/plugin.js';
import { VERSION } from '../version.js';

// GET /: where a stranger who types the bare address lands. A small JSON index of what
// the service serves, so that curl, a browser or a tool finds the reference and the probes
// without reading our docs first. Not part of the project API, so not in the OpenAPI document.

export const SERVICE_INDEX = {
  name: 'Storefront API',
  version: VERSION,
  api: '/v2/projects/{project_id}',
  links: {
    docs: DOCS_PATH,
    openapi: OPENAPI_PATH,
    toolkit: '/toolkit.js',
    health: '/healthz',
    ready: '/readyz',
  },
} as const;

export default fp(
  async function serviceIndex(app: FastifyInstance) {
    app.get('/', { schema: { hide: true } }, async () => SERVICE_INDEX);
  },
  { name: 'service-index' },
);
