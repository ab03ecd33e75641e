import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';
import { addRouteHook } from '../http/route-hooks.js';
import { checkAdminKey } from '../keys/admin.js';
import { findKeyByHash, nowSeconds } from '../keys/repository.js';
import { hashKey, isWellFormedKey } from '../keys/token.js';

// The admin API (routes with `config: { admin: true }`: POST/GET /v2/projects/, DELETE
// /v2/projects/<id>) takes an admin key (src/keys/admin.ts). A missing, malformed, unknown or
// revoked key is 401; a project's own working key is 403 (it is a key, just not one that may
// manage projects). Sets `request.adminKeyId`, which every admin route logs its call with.

export default fp(
  async function adminScope(app: FastifyInstance, options: { adminKeyHashes?: readonly string[] }) {
    app.decorateRequest('adminKeyId', null);
    const envHashes = options.adminKeyHashes ?? [];

    const enterAdmin: onRequestAsyncHookHandler = async (request) => {
      const key = bearerOf(request);
      const admin = await checkAdminKey(app.storage.db, key, envHashes);
      if (admin !== undefined) {
        request.adminKeyId = admin;
        return;
      }
      if (await isProjectKey(app, key))
        throw new ApiError(403, 'a project key cannot manage projects: use an admin key', [
          { field: 'scope', message: 'requires an admin key' },
        ]);
      throw new ApiError(401, 'the admin key is not valid');
    };

    app.addHook('onRoute', (route) => {
      if (route.config?.admin) addRouteHook(route, 'onRequest', enterAdmin);
    });
  },
  { name: 'admin-scope', dependencies: ['storage'] },
);

function bearerOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw new ApiError(401, 'an admin key is required: send Authorization: Bearer <admin key>');
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw new ApiError(401, 'the Authorization header must be "Bearer <key>"');
  return match[1];
}

/** A working key of some project (not revoked, not expired). */
async function isProjectKey(app: FastifyInstance, key: string): Promise<boolean> {
  if (!isWellFormedKey(key)) return false;
  const row = await findKeyByHash(app.storage.db, hashKey(key));
  return !!row && row.revoked_at === null && (row.expires_at === null || row.expires_at > nowSeconds());
}
