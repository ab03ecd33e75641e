import type { FastifyInstance, FastifyRequest, RouteOptions, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Reads } from '../db/reads.js';
import { ApiError } from '../errors.js';
import { addRouteHook } from '../http/route-hooks.js';
import { VERSION_HEADER, askedVersion } from '../http/storefront-version.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { linkQuery, redeemLink } from '../export/download-links.js';
import { type AcceptedKey, KeyChecker } from '../keys/checker.js';
import { type Scope, missingScope } from '../keys/scopes.js';
import { isWellFormedKey } from '../keys/token.js';
import { ProjectReader } from '../resources/projects/reader.js';
import type { Project } from '../resources/projects/repository.js';

// Every route under /v2/projects/:project_id passes through here first. In the order of the
// answers (docs/API.md): a missing, malformed, unknown, revoked, expired or foreign key is
// 401 before any other check; a valid key without the route's scope is 403 right after it;
// then an unknown project is 404. The project row is read first all the same (the shared
// read every request waits for), since it carries the keys_version that lets the key be
// checked from memory (src/keys/checker.ts); a key can be valid only for a project that
// exists, so a missing project with a key needed is still a 401, which names the key's own
// project when it is a live key of another one (refusedKey).
//
// The check is the route's own onRequest hook, so it runs after every app-wide onRequest
// hook (the address rate limit counts a request with a bad key too) and costs nothing on
// the other routes.

export const PROJECT_ROUTES = '/v2/projects/:project_id';

export default fp(
  async function projectScope(app: FastifyInstance, options: { now?: () => number }) {
    app.decorateRequest('project', null as unknown as Project);
    app.decorateRequest('apiKeyId', null);
    app.decorateRequest('apiKeyScopes', null);
    app.decorateRequest('isPrivate', false);
    app.decorateRequest('reads', null as unknown as Reads);
    app.decorateRequest('storefrontVersion', null);
    const projects = new ProjectReader(app.storage.reads);
    const keys = new KeyChecker(app.storage.reads, options.now ?? (() => Math.floor(Date.now() / 1000)), (error) =>
      app.log.warn({ err: error }, 'could not record when a key was last used'),
    );
    app.decorate('keys', keys);
    app.addHook('onClose', () => keys.settled());

    const enterProject: onRequestAsyncHookHandler = async (request) => {
      const { project_id: projectId } = request.params as { project_id: string };
      const { needed, needsKey } = neededScopes(request);
      if (needsKey) request.isPrivate = true;
      // A malformed key or version is refused before any database work. An export's
      // one-time download link stands for a key when no Authorization header is sent.
      const token = needsKey ? downloadToken(request) : undefined;
      const presented = needsKey && token === undefined ? presentedKey(request) : undefined;
      const asked = askedVersion(request.headers[VERSION_HEADER]);
      // Which database answers (src/db/reads.ts): one that has reached the version the caller
      // saw or this process wrote; a write's reads are all the primary's.
      const reading = request.method === 'GET' || request.method === 'HEAD';
      const atLeast = reading ? Math.max(asked, app.storage.reads.written(projectId)) : Infinity;
      const { project, reads } = await projects.enter(projectId, atLeast);
      request.reads = reads;
      request.storefrontVersion = project ? Number(project.data_version) : 0;
      if (token !== undefined || presented !== undefined) {
        const key =
          project &&
          (token !== undefined
            ? await linkedKey(app.storage.db, keys, project, token, request)
            : await keys.check(project, presented!));
        if (!key)
          throw token !== undefined ? new ApiError(401, LINK_REFUSED) : await refusedKey(keys, presented!, projectId);
        request.apiKeyId = key.id;
        request.apiKeyScopes = key.scopes;
        for (const s of needed) if (!key.scopes.has(s)) throw missingScope(s);
      }
      if (!project) throw new ApiError(404, `project ${JSON.stringify(projectId)} not found`);
      request.project = project;
    };

    // Storefront-Version on every answer of a project's path that read the project (CONTRACT
    // 16): the version its row had where the request read (0: no such project); a write's answer
    // carries this process's latest write of the project, which includes it.
    app.addHook('onSend', (request, reply, payload, done) => {
      const version = request.storefrontVersion;
      if (version !== null) {
        const written = request.project ? app.storage.reads.written(request.project.id) : 0;
        const reading = request.method === 'GET' || request.method === 'HEAD';
        reply.header('Storefront-Version', String(reading ? version : Math.max(version, written)));
      }
      done(null, payload);
    });

    app.addHook('onRoute', (route) => {
      // The 405 answers of src/plugins/method-not-allowed.ts name no project.
      const inProject = route.url === PROJECT_ROUTES || route.url.startsWith(`${PROJECT_ROUTES}/`);
      // DELETE /v2/projects/<id> is the admin API's (admin-scope.ts).
      if (!inProject || route.config?.methodNotAllowed || route.config?.admin) return;
      checkAuthConfig(route);
      addRouteHook(route, 'onRequest', enterProject);
    });
  },
  { name: 'project-scope', dependencies: ['storage'] },
);

/**
 * The scopes this request needs, and whether it needs a key at all. `asked`: read off its
 * query (the change feed's types); `key` with a list of scopes: every one of them (the
 * project export needs every read scope).
 */
function neededScopes(request: FastifyRequest): { needed: readonly Scope[]; needsKey: boolean } {
  const { auth, scope, askedScopes } = request.routeOptions.config;
  const query = request.query as Record<string, unknown>;
  const needed: readonly Scope[] =
    auth === 'asked' ? askedScopes!(query) : typeof scope === 'string' ? [scope] : (scope ?? []);
  const needsKey =
    auth === 'key' ||
    (auth === 'fetch_hidden' && query.fetch_hidden === 'true') ||
    (auth === 'fetch_inactive' && query.fetch_inactive === 'true') ||
    (auth === 'asked' && needed.length > 0);
  return { needed, needsKey };
}

/**
 * A route that takes a key names the scope it needs, so that no protected call is left open
 * to every key (and the tests find every scope to try from the routes); `scope: null` says
 * outright that any valid key of the project will do.
 */
function checkAuthConfig(route: RouteOptions): void {
  if ((route.config?.auth === undefined) !== (route.config?.scope === undefined))
    throw new Error(
      `${String(route.method)} ${route.url}: a route with config.auth needs config.scope (null: any key), and only it`,
    );
  if ((route.config?.auth === 'asked') !== (Array.isArray(route.config?.scope) && !!route.config?.askedScopes))
    throw new Error(`${String(route.method)} ${route.url}: auth 'asked' goes with askedScopes and a list of scopes`);
}

/** The key of the Authorization header; a 401 when there is none or it cannot be a key. */
function presentedKey(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw new ApiError(401, 'an API key is required: send Authorization: Bearer <key>');
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw new ApiError(401, 'the Authorization header must be "Bearer <key>"');
  if (!isWellFormedKey(match[1])) throw new ApiError(401, INVALID_KEY);
  return match[1];
}

const INVALID_KEY = 'the API key is not valid';
const LINK_REFUSED = 'the download link is not valid (used, expired, or made for another export): ask for a new one';

/** The token of an export's download link, when the route takes one and no key is sent. */
function downloadToken(request: FastifyRequest): string | undefined {
  if (!request.routeOptions.config.download || request.headers.authorization !== undefined) return undefined;
  const token = (request.query as Record<string, unknown>).download_token;
  return typeof token === 'string' ? token : undefined;
}

/** The live key a download link of this very export stands for; the link is used up. */
async function linkedKey(
  db: Kysely<Database>,
  keys: KeyChecker,
  project: Project,
  token: string,
  request: FastifyRequest,
): Promise<AcceptedKey | undefined> {
  const file = request.routeOptions.config.download!;
  const target = { projectId: project.id, file, query: linkQuery(request.url), now: keys.now() };
  const keyId = await redeemLink(db, token, target);
  return keyId === undefined ? undefined : keys.checkId(project, keyId);
}

/**
 * The 401 of a well-formed key this project refused: a live key of another project says
 * whose it is (a mistyped project id, not a bad key); any other says only that it is not
 * valid. Whether the path's project exists is never told.
 */
async function refusedKey(keys: KeyChecker, key: string, projectId: string): Promise<ApiError> {
  const owner = await keys.ownerOf(key);
  if (owner === undefined || owner === projectId) return new ApiError(401, INVALID_KEY);
  return new ApiError(
    401,
    `this API key belongs to project ${JSON.stringify(owner)}, not ${JSON.stringify(projectId)}`,
  );
}
