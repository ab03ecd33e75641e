import { readFileSync, readdirSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors.js';

// GET /console/: the operator console (console/, built by scripts/build-console.js into
// dist/console). Every path under /console/ that is not an asset answers index.html, so that
// an address the console made (/console/orders?payment_status=paid) can be bookmarked and
// reloaded. Assets carry a hash of their content in their name, so browsers keep them a
// year; the page itself is revalidated every time (its ETag makes that cheap). The policy
// allows this origin only: no other origin's script, style, font, image or connection.

const CONSOLE_DIR = new URL('../../console/', import.meta.url); // dist/src/client -> dist/console
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const TYPES: Record<string, string> = {
  js: 'application/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

interface Built {
  page: Buffer;
  assets: Map<string, { body: Buffer; type: string }>;
}

export async function consoleRoute(app: FastifyInstance): Promise<void> {
  const built = readBuilt();
  const send = (reply: FastifyReply, body: Buffer, type: string) =>
    reply.type(type).header('content-security-policy', CONSOLE_CSP).header('x-frame-options', 'DENY').send(body);

  const page = async (_request: unknown, reply: FastifyReply) => {
    if (!built) throw new ApiError(404, 'the console has not been built; run npm run build');
    return send(reply, built.page, 'text/html; charset=utf-8');
  };
  // Kept out of the OpenAPI document like /docs and /toolkit.js: pages, not the JSON API.
  // (/console without the slash is the same route: the router ignores a trailing slash, and
  // the page names its assets by absolute paths.)
  app.get('/console/', { schema: { hide: true } }, page);
  app.get('/console/*', { schema: { hide: true } }, async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    if (!rest.startsWith('assets/')) return page(request, reply);
    const asset = built?.assets.get(rest.slice('assets/'.length));
    if (!asset) throw new ApiError(404, `no console asset ${JSON.stringify(rest)}`);
    return send(reply, asset.body, asset.type);
  });
  // A route-level onSend runs after the app-wide ones: the assets' long lifetime replaces
  // the API's `public, no-cache`, which the page keeps.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/console/assets/') && reply.statusCode < 400)
      reply.header('cache-control', ASSET_CACHE_CONTROL);
    return payload;
  });
}

function readBuilt(): Built | undefined {
  try {
    const page = readFileSync(new URL('index.html', CONSOLE_DIR));
    const assets = new Map<string, { body: Buffer; type: string }>();
    for (const name of readdirSync(new URL('assets/', CONSOLE_DIR))) {
      const type = TYPES[name.slice(name.lastIndexOf('.') + 1)];
      if (type) assets.set(name, { body: readFileSync(new URL(`assets/${name}`, CONSOLE_DIR)), type });
    }
    return { page, assets };
  } catch (error) {
    // A checkout where only tsc ran: the API works, the route says what is missing.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
