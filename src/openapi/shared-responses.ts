import { type ErrorStatus, codeFor } from '../errors.js';

// Every error an operation can answer has the same body (the Error envelope), and the same
// meaning wherever it comes from. Each is described once, under components/responses, and
// operations refer to it: the document, and the client types generated from it, say each
// error once instead of once per operation. The descriptions are those of docs/API.md,
// "Errors"; a 401 comes with WWW-Authenticate and a 429 and a 503 with Retry-After on every route.

type Json = Record<string, unknown>;

const ERROR_SCHEMA_REF = '#/components/schemas/Error';

interface SharedResponse {
  status: ErrorStatus;
  description: string;
  headers?: Json;
}

const SHARED: Record<string, SharedResponse> = {
  BadRequest: { status: 400, description: 'a bad parameter, header or body; `details` names each problem' },
  Unauthorized: {
    status: 401,
    description: 'no API key, or one that is unknown, revoked or expired',
    headers: { 'WWW-Authenticate': { schema: { type: 'string', const: 'Bearer' } } },
  },
  Forbidden: {
    status: 403,
    description:
      'the API key lacks the scope this operation needs (named in its security requirement), or would grant a scope it lacks',
  },
  NotFound: { status: 404, description: 'no such project or record' },
  RequestTimeout: {
    status: 408,
    description:
      'the request did not arrive within REQUEST_TIMEOUT_MS, or an import upload sent nothing for UPLOAD_IDLE_TIMEOUT_MS or too slowly (UPLOAD_MIN_BYTES_PER_SECOND); the connection is closed',
  },
  Conflict: {
    status: 409,
    description:
      "an Idempotency-Key reused for another request, or still in use; or a batch item's if_match that is not its product's current ETag",
  },
  Gone: {
    status: 410,
    description: 'a change-feed cursor older than the deletions kept, or of another project: start again without it',
  },
  PreconditionFailed: { status: 412, description: 'If-Match names an ETag the record no longer has' },
  PayloadTooLarge: { status: 413, description: 'a body over 64 KiB (1 MiB for the products batch update)' },
  UnsupportedMediaType: {
    status: 415,
    description: 'a body not sent as Content-Type: application/json, or with a charset other than utf-8',
  },
  TooManyRequests: {
    status: 429,
    description: 'too many requests from this address or key; wait Retry-After seconds',
    headers: {
      'Retry-After': { description: 'seconds until the budget refills', schema: { type: 'integer', minimum: 0 } },
    },
  },
  InternalError: { status: 500, description: 'an unexpected failure; the message never carries details' },
  Unavailable: {
    status: 503,
    description:
      'storage is unreachable, or busy with another write for longer than a request waits; try again after Retry-After seconds',
    headers: {
      'Retry-After': { description: 'seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } },
    },
  },
};

const NAME_OF_STATUS = new Map(Object.entries(SHARED).map(([name, { status }]) => [String(status), name]));

/**
 * Replaces every operation's error answer (an Error body at a status listed above) by a $ref to
 * its shared response, and adds the ones referred to under components/responses.
 */
export function shareErrorResponses(document: Json): void {
  const used = new Set<string>();
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const operation of Object.values(item)) {
      const responses = operation.responses as Record<string, Json> | undefined;
      for (const [status, response] of Object.entries(responses ?? {})) {
        const name = NAME_OF_STATUS.get(status);
        if (!name || !isErrorBody(response)) continue;
        responses![status] = { $ref: `#/components/responses/${name}` };
        used.add(name);
      }
    }
  }
  if (used.size === 0) return;
  const components = (document.components ??= {}) as Json;
  const responses = { ...(components.responses as Record<string, Json> | undefined) };
  for (const [name, { status, description, headers }] of Object.entries(SHARED)) {
    if (!used.has(name)) continue;
    responses[name] = {
      description: `${codeFor(status)}: ${description}`,
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: { $ref: ERROR_SCHEMA_REF } } },
    };
  }
  components.responses = responses;
}

function isErrorBody(response: Json): boolean {
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  return content?.['application/json']?.schema?.$ref === ERROR_SCHEMA_REF;
}
