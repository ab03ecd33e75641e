import type { FastifySchema, RouteOptions } from 'fastify';
import { errorResponses } from '../http/schemas.js';
import { IDEMPOTENCY_KEY_PATTERN, takesIdempotencyKey } from '../plugins/idempotency.js';

// The document is generated from the route schemas; this transform only adds what every
// route shares but does not declare itself, because it comes from app-wide hooks:
// - 304 on GET (src/plugins/http-caching.ts answers If-None-Match from the ETag, with no body),
//   except on streamed files (the exports),
// - 429 (src/plugins/rate-limit.ts limits every route), 500 and 503 (src/plugins/error-handler.ts
//   can answer them on any route),
// - the Authorization scheme a route needs (config.auth, read by src/plugins/project-scope.ts),
//   with the scope its key must hold (config.scope), and the 403 of a key without it,
// - the header that comes with 200 (ETag), and the request headers those hooks read
//   (If-None-Match, If-Match, Idempotency-Key);
// - `security: []` on public routes, so that no viewer shows them locked.
// It hides the catch-all 405 routes of src/plugins/method-not-allowed.ts: they are the absence
// of an operation, which OpenAPI says by not listing the method; the API description
// explains the 405 answer instead.

type Schema = Record<string, unknown>;

const STATUS_TEXT: Record<string, string> = { 200: 'OK', 201: 'Created', 204: 'No Content' };

export function documentRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }) {
  const config = route.config ?? {};
  if (config.methodNotAllowed) return { schema: { ...schema, hide: true }, url };
  // A route without a schema stays in the document as it is: the conformance check of the
  // tests then fails on its undescribed answers, rather than the route vanishing unnoticed.
  if (!schema || (schema as Schema).hide) return { schema, url };

  const isGet = route.method === 'GET' || (Array.isArray(route.method) && route.method.includes('GET'));
  const response: Record<string, unknown> = { ...(schema.response as Schema | undefined) };
  for (const [status, value] of Object.entries(response)) {
    const described = value as Schema;
    if (described.description || described['x-response-description']) continue;
    // @fastify/swagger reads a $ref response's description from the $ref object itself.
    const key = described.$ref ? 'description' : 'x-response-description';
    response[status] = { ...described, [key]: STATUS_TEXT[status] ?? status };
  }
  // Every answer of a project's path carries the version it reflects, and a request may ask
  // for one (src/plugins/project-scope.ts, CONTRACT 16).
  const ofProject = url.includes(':project_id') && !config.admin;
  const success = Object.keys(response).find((status) => /^2/.test(status));
  if (ofProject && success)
    response[success] = withHeaders(response[success] as Schema, { 'Storefront-Version': VERSION });
  // A file streamed as it is read (the exports: `content` of their own) has no ETag and no 304.
  const cached = isGet && response[200] !== undefined && (response[200] as Schema).content === undefined;
  if (cached) {
    response[200] = withHeaders(response[200] as Schema, {
      ETag: { type: 'string', description: 'entity tag of this answer; send it back in If-None-Match' },
    });
    response[304] = { type: 'null', description: 'Not Modified: If-None-Match matched the current ETag; no body' };
  }
  // The answers app-wide hooks can give on any route; their descriptions and headers
  // (WWW-Authenticate, Retry-After) are those of the shared responses (shared-responses.ts).
  const scopes: readonly string[] =
    config.scope == null ? [] : typeof config.scope === 'string' ? [config.scope] : config.scope;
  const added = errorResponses(429, 500, 503, ...(scopes.length ? ([403] as const) : []));
  for (const [status, error] of Object.entries(added)) response[status] ??= error;

  const out: Schema = { ...schema, response };
  if (cached)
    out.headers = withRequestHeaders(schema.headers as Schema | undefined, { 'if-none-match': IF_NONE_MATCH });
  if (ofProject)
    out.headers = withRequestHeaders(out.headers as Schema | undefined, { 'storefront-version': ASKED_VERSION });
  // The app-wide hooks that read these headers: If-Match on the updates that can answer 412
  // (src/http/if-match.ts), Idempotency-Key where takesIdempotencyKey says (idempotency.ts).
  if (route.method === 'POST' && response[412])
    out.headers = withRequestHeaders(out.headers as Schema | undefined, { 'if-match': IF_MATCH });
  if (takesIdempotencyKey(route.method, config))
    out.headers = withRequestHeaders(out.headers as Schema | undefined, { 'idempotency-key': IDEMPOTENCY_KEY });
  // OpenAPI 3.1 lets a bearer requirement list the roles it needs: the key's scope (none:
  // any valid key of the project).
  // A key route of several scopes needs them all (the project export).
  const bearer = { bearerAuth: config.auth === 'key' ? [...scopes] : scopes.slice(0, 1) };
  if (config.admin) out.security = [{ adminKey: [] }];
  else if (config.auth === 'key') out.security = [bearer];
  // An empty requirement makes the key optional: needed only with fetch_hidden=true (or fetch_inactive=true).
  else if (config.auth === 'fetch_hidden' || config.auth === 'fetch_inactive') out.security = [{}, bearer];
  // Optional, and then one scope per thing asked (the change feed: fetch_hidden first, then types).
  else if (config.auth === 'asked') out.security = [{}, ...scopes.map((s) => ({ bearerAuth: [s] }))];
  // Public: said outright, so that no viewer draws a padlock on it.
  else out.security = [];
  return { schema: out as FastifySchema, url };
}

function withHeaders(schema: Schema, headers: Record<string, Schema>): Schema {
  return { ...schema, headers: { ...(schema.headers as Schema | undefined), ...headers } };
}

// An ETag as the API makes it (src/http/etag.ts): SHA-1 in base64url, quoted.
const ETAG_EXAMPLE = '"2jmj7l5rSw0yVb_vlWAYkK_YBwk"';

const VERSION: Schema = {
  type: 'string',
  pattern: '^[0-9]+$',
  description: "the project's data version this answer reflects (a write's includes the write)",
  examples: ['1042'],
};
// As src/http/storefront-version.ts checks it.
const ASKED_VERSION: Schema = {
  type: 'string',
  pattern: '^\\s*[0-9]{1,15}\\s*$',
  description:
    'the highest Storefront-Version of this project you have seen: the answer reflects at least that state (read replicas, docs/API.md)',
  examples: ['1042'],
};

const IF_NONE_MATCH: Schema = {
  type: 'string',
  description: 'an ETag from an earlier answer: 304 when it still matches',
  examples: [ETAG_EXAMPLE],
};
const IF_MATCH: Schema = {
  type: 'string',
  description: 'the ETag of the record as last read (or *): 412 precondition_failed when it has changed since',
  examples: [ETAG_EXAMPLE],
};
const IDEMPOTENCY_KEY: Schema = {
  type: 'string',
  pattern: IDEMPOTENCY_KEY_PATTERN,
  description:
    'any printable ASCII text of 1 to 255 characters, e.g. a UUID: a retry with the same key and body is answered from the first answer; another body is 409 conflict',
  examples: ['4f1c2b9e-8d3a-4e6f-b7a2-1c5d9e0f3a68'],
};

function withRequestHeaders(headers: Schema | undefined, added: Record<string, Schema>): Schema {
  const properties = { ...(headers?.properties as Schema | undefined), ...added };
  return { type: 'object', ...headers, properties };
}
