import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.js';
import { EmptyQuery, ProjectParams, errorResponses } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { Type } from 'typebox';
import { createKey, findKeyInfo, listKeys, revokeTarget, rollKey } from '../../keys/repository.js';
import { type Scope, hasScope } from '../../keys/scopes.js';
import { CreatedKey, KeyCreate, KeyList, KeyParams, KeyRoll, RevokedKey, RolledKey } from './schemas.js';

// The project's keys over HTTP, for a key with keys:manage (docs/API.md, "Keys over HTTP").
// Every query names the path's project, so another project's key id is a 404 like an
// unknown one. A key grants no scope it lacks itself: creating or rolling a key with such a
// scope is a 403. Create and roll answer with a secret, so they refuse an Idempotency-Key
// (its answer would be stored: src/plugins/idempotency.ts).

const manage = { auth: 'key', scope: 'keys:manage' } as const;
const tags = ['keys'];
/** What the routes of the project's keys share: the project in the path, and no query. */
const ofProject = { tags, params: ProjectParams, querystring: EmptyQuery };
/** What the routes of one key share: the key's id in the path, and no query. */
const ofOneKey = { tags, params: KeyParams, querystring: EmptyQuery };

export async function keyRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  readRoutes(app);
  createRoute(app);
  oneKeyRoutes(app);
}

/** The project's keys, and the calling key itself. */
function readRoutes(app: TypedApp): void {
  app.get('/keys/', {
    config: manage,
    schema: {
      operationId: 'listKeys',
      summary: "List the project's keys",
      description: 'The keys that still work, by id, with their scopes, expiry and last use; never a secret.',
      ...ofProject,
      response: { 200: KeyList, ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => ({ data: await listKeys(app.storage, request.project.id, app.keys.now()) }),
  });

  app.get('/keys/current', {
    // Any valid key reads itself, so that a client can show what it may do (CONTRACT 12).
    config: { auth: 'key', scope: null },
    schema: {
      operationId: 'getCurrentKey',
      summary: 'Get the calling key',
      description:
        'The key that makes this call: id, label, scopes, created_at and expires_at; never its secret. Needs no scope.',
      ...ofProject,
      response: { 200: Type.Ref('CurrentKey'), ...errorResponses(400, 401, 404) },
    },
    handler: async (request) => {
      const found = await findKeyInfo(app.storage, request.project.id, request.apiKeyId!);
      // Revoked between the check and this read: as if it had been refused a moment sooner.
      if (!found) throw new ApiError(401, 'the API key is not valid');
      return found;
    },
  });
}

/** A new key: the answer holds its secret, shown this once. */
function createRoute(app: TypedApp): void {
  app.post('/keys/', {
    config: { ...manage, answerHoldsSecret: true },
    schema: {
      operationId: 'createKey',
      summary: 'Create a key',
      description: 'The answer holds the new key, shown this once. The scopes default to those of the key that asks.',
      ...ofProject,
      body: KeyCreate,
      response: { 201: CreatedKey, ...errorResponses(400, 401, 403, 404, 413, 415) },
    },
    handler: async (request, reply) => {
      const { label, scopes, expires_in_days: days } = request.body;
      const granted = scopes ?? [...request.apiKeyScopes!];
      refuseUngranted(request, granted);
      const made = await createKey(app.storage, request.project.id, label, {
        scopes: granted,
        expiresIn: days === undefined ? undefined : days * 86_400,
        now: app.keys.now(),
      });
      reply.code(201);
      return { ...made.info, key: made.key };
    },
  });
}

/** One key: revoked (it stops at once) or rolled (a new secret, the old one for a while). */
function oneKeyRoutes(app: TypedApp): void {
  app.post('/keys/:key_id/revoke', {
    config: manage,
    schema: {
      operationId: 'revokeKey',
      summary: 'Revoke a key',
      description: 'The key stops working at once, in every server process. Takes no body.',
      ...ofOneKey,
      response: { 200: RevokedKey, ...errorResponses(400, 401, 404, 413, 415) },
    },
    handler: async (request) => {
      const keyId = request.params.key_id;
      const revoked = await revokeTarget(app.storage, {
        keyId,
        projectId: request.project.id,
        now: app.keys.now(),
      });
      if (!revoked) throw new ApiError(404, `key ${keyId} not found (or already revoked)`);
      return revoked;
    },
  });

  app.post('/keys/:key_id/roll', {
    config: {
      ...manage,
      answerHoldsSecret: true,
      exists: async (request) => {
        const id = (request.params as { key_id: number }).key_id;
        return (await findKeyInfo(app.storage, request.project.id, id)) !== undefined;
      },
    },
    schema: {
      operationId: 'rollKey',
      summary: 'Roll a key',
      description:
        'A new key with the same label, scopes and lifetime; the old one keeps working for overlap_seconds, then stops. The answer holds the new key, shown this once.',
      ...ofOneKey,
      body: KeyRoll,
      response: { 201: RolledKey, ...errorResponses(400, 401, 403, 404, 413, 415) },
    },
    handler: async (request, reply) => {
      const keyId = request.params.key_id;
      const rolled = await rollKey(app.storage, {
        keyId,
        projectId: request.project.id,
        overlap: request.body.overlap_seconds,
        now: app.keys.now(),
        check: (old) => refuseUngranted(request, old.scopes),
      });
      if (!rolled) throw new ApiError(404, `key ${keyId} not found (or revoked, or expired)`);
      reply.code(201);
      return { ...rolled.info, key: rolled.key, previous: rolled.previous };
    },
  });
}

/** 403 when the key that asks lacks any of these scopes: a key cannot grant more than it holds. */
function refuseUngranted(request: FastifyRequest, scopes: Scope[]): void {
  const lacking = scopes.filter((s) => !hasScope(request, s));
  if (lacking.length === 0) return;
  throw new ApiError(
    403,
    `this API key cannot grant ${lacking.join(', ')}, which it lacks itself`,
    lacking.map((s) => ({ field: 'scopes', message: `cannot grant ${s}: this key lacks it` })),
  );
}
