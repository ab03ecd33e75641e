import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

// GET /toolkit.js: the browser toolkit (dist/toolkit.js, built by scripts/build-toolkit.js).
// It is read once at start-up. The app-wide caching hook gives it its ETag and 304s like any
// other answer; only the cache lifetime differs: a day, since the script rarely changes and
// every page of a shop loads it, instead of the API's revalidate-every-time.

const TOOLKIT_FILE = new URL('../../toolkit.js', import.meta.url); // dist/src/client -> dist
export const TOOLKIT_CACHE_CONTROL = 'public, max-age=86400';

export async function toolkitRoute(app: FastifyInstance): Promise<void> {
  const script = readToolkit();
  app.get('/toolkit.js', {
    // A script, not part of the JSON API: kept out of the OpenAPI document like /docs.
    schema: { hide: true },
    // A route-level onSend runs after the app-wide ones, so this lifetime replaces the
    // API's `public, no-cache` for this one route, on 200 and 304 answers alike.
    onSend: async (_request, reply, payload) => {
      if (reply.statusCode < 400) reply.header('cache-control', TOOLKIT_CACHE_CONTROL);
      return payload;
    },
    handler: async (_request, reply) => {
      if (!script) throw new ApiError(404, 'the toolkit has not been built; run npm run build');
      return reply
        .type('application/javascript; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send(script);
    },
  });
}

function readToolkit(): Buffer | undefined {
  try {
    return readFileSync(TOOLKIT_FILE);
  } catch (error) {
    // A checkout where only tsc ran: the API itself still works, the route says what is missing.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
