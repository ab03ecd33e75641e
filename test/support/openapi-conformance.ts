import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { AssertionError } from 'node:assert';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Response } from 'light-my-request';

// Checks one answer of the app against the OpenAPI document the app itself serves: the path
// and method must be documented, the status must be listed for that operation, and a JSON
// body must match the documented schema. An answer the document does not describe is a
// failure, so the document cannot fall behind the routes without the suite noticing.
//
// Exceptions, each still checked as far as it can be:
// - GET /v2/openapi.json and /docs/*: the document and its viewer are hidden from the
//   document itself (they describe it; they are not part of the API);
// - GET /toolkit.js: the browser toolkit, a script rather than part of the JSON API, hidden
//   too (test/client/toolkit-route.test.ts checks its answers);
// - /healthz, /readyz and /metrics: probes for the operator (docs/DEPLOY.md), hidden too
//   (test/http/headers-logs-probes-limits.test.ts checks their answers);
// - GET /: the service index (src/plugins/service-index.ts), a map of the above, hidden too;
// - OPTIONS: CORS preflight, answered by @fastify/cors for every path (described in the
//   document's introduction, not per path);
// - a path that cannot be percent-decoded: 400 with an Error body, whatever the path;
// - a path the document does not know: it must be the generic 404 with an Error body;
// - a path or method the document does not know, in a request that every route would refuse
//   (a body that is not JSON, empty or over 64 KiB, a query parameter given twice): those
//   checks run before routing, so 400, 413 or 415 with an Error body comes before the 404 or 405;
// - an empty path segment is matched like any other value (as the router does);
// - a method a documented path does not serve: it must be 405 with an Error body and an
//   Allow header listing exactly the documented methods (+ HEAD with GET, + OPTIONS);
//   those catch-all routes (src/http/method-not-allowed.ts) are hidden from the document;
// - HEAD is checked as the GET of that path, with no body;
// - 304 (If-None-Match) is documented without a body, and must have none.

type Schema = Record<string, unknown>;
interface DocumentedResponse {
  $ref?: string;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  responses: Record<string, DocumentedResponse>;
}
type PathItem = Record<string, Operation>;
interface Document {
  paths: Record<string, PathItem>;
  components?: { responses?: Record<string, DocumentedResponse> };
}

const HIDDEN = [
  /^\/+$/, // `//` reaches the index too: trailing slashes are ignored
  /^\/v2\/openapi\.json\/?$/,
  /^\/docs(\/|$)/,
  /^\/toolkit\.js\/?$/,
  /^\/(healthz|readyz|metrics)\/?$/,
];
const DOCUMENT_ID = 'openapi.json';
const SHARED_RESPONSES = '#/components/responses/';
const REFUSED_BEFORE_ROUTING = [400, 413, 415];

export class ConformanceChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly paths: Array<{ template: string; pattern: RegExp; params: number; item: PathItem }>;
  private readonly responses: Record<string, DocumentedResponse>;

  constructor(document: Document) {
    addFormats.default(this.ajv);
    // The whole document is one schema resource, so that the `#/components/schemas/...`
    // references inside the response schemas resolve exactly as a client would resolve them.
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.responses = document.components?.responses ?? {};
    this.paths = Object.entries(document.paths).map(([template, item]) => ({
      template,
      item,
      params: (template.match(/\{[^}]+\}/g) ?? []).length,
      pattern: new RegExp(
        `^${trimSlash(template)
          .split(/\{[^}]+\}/)
          .map(escape)
          .join('[^/]*')}$`,
      ),
    }));
  }

  /** Throws an AssertionError naming the request when the answer is not documented. */
  check(response: Response): void {
    const method = (response.raw.req.method ?? 'GET').toUpperCase();
    const path = (response.raw.req.url ?? '/').split('?')[0];
    const where = `${method} ${response.raw.req.url} answered ${response.statusCode}`;
    if (method === 'OPTIONS' || HIDDEN.some((p) => p.test(path))) return;

    const matches = this.paths.filter((p) => p.pattern.test(trimSlash(path))).sort((a, b) => a.params - b.params);
    const operation = matches.length ? matches[0].item[method === 'HEAD' ? 'get' : method.toLowerCase()] : undefined;
    if (!operation && REFUSED_BEFORE_ROUTING.includes(response.statusCode))
      return this.checkErrorBody(response, method, where);
    if (!decodable(path)) {
      expect(response.statusCode === 400, `${where}: a path that cannot be decoded must be 400`, response);
      return this.checkErrorBody(response, method, where);
    }
    if (matches.length === 0) {
      expect(response.statusCode === 404, `${where}: a path missing from the document must be 404`, response);
      return this.checkErrorBody(response, method, where);
    }
    const { template, item } = matches[0];
    if (!operation) {
      expect(
        response.statusCode === 405,
        `${where}: ${method} is not documented for ${template}, so it must be 405`,
        response,
      );
      const documented = Object.keys(item).map((m) => m.toUpperCase());
      const expected = new Set([...documented, ...(documented.includes('GET') ? ['HEAD'] : []), 'OPTIONS']);
      const allow = new Set(
        String(response.headers.allow ?? '')
          .split(/\s*,\s*/)
          .filter(Boolean),
      );
      expect(
        sameSet(allow, expected),
        `${where}: Allow "${response.headers.allow}" differs from the documented methods ${[...expected].join(', ')}`,
        response,
      );
      return this.checkErrorBody(response, method, where);
    }

    const status = String(response.statusCode);
    const listed = operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
    expect(
      listed !== undefined,
      `${where}: status ${status} is not documented for ${method} ${template} (documented: ${Object.keys(operation.responses).join(', ')})`,
      response,
    );
    const key =
      status in operation.responses ? status : listed === operation.responses.default ? 'default' : `${status[0]}XX`;
    // An error answer is a $ref to a response shared by every operation (components/responses).
    const pointer =
      listed.$ref ?? `#/paths/${encodeURIComponent(escapePointer(template))}/${method.toLowerCase()}/responses/${key}`;
    const documented = listed.$ref ? this.sharedResponse(listed.$ref) : listed;
    expect(documented !== undefined, `${where}: ${listed.$ref} is not in the document`, response);
    const schema = documented.content?.['application/json']?.schema;
    // A file (an export): the media type sent must be the one documented.
    const media = Object.keys(documented.content ?? {}).filter((type) => type !== 'application/json');
    if (method !== 'HEAD' && !schema && media.length > 0) {
      const sent = String(response.headers['content-type'] ?? '').split(';')[0];
      expect(media.includes(sent), `${where}: sent ${sent}, documented ${media.join(', ')}`, response);
      return;
    }
    if (method === 'HEAD' || !schema) {
      expect(response.rawPayload.length === 0, `${where}: the document describes no body, yet one was sent`, response);
      return;
    }
    this.checkBody(response, `${pointer}/content/application~1json/schema`, where);
  }

  private sharedResponse(ref: string): DocumentedResponse | undefined {
    const name = ref.startsWith(SHARED_RESPONSES) ? ref.slice(SHARED_RESPONSES.length) : undefined;
    return name === undefined ? undefined : this.responses[name];
  }

  /** The Error envelope; none at all for HEAD, which never has a body. */
  private checkErrorBody(response: Response, method: string, where: string): void {
    if (method !== 'HEAD') return this.checkBody(response, '#/components/schemas/Error', where);
    expect(response.rawPayload.length === 0, `${where}: an answer to HEAD has no body`, response);
  }

  private checkBody(response: Response, pointer: string, where: string): void {
    expect(
      /^application\/json\b/.test(String(response.headers['content-type'] ?? '')),
      `${where}: expected a JSON body, got content-type ${String(response.headers['content-type'])}`,
      response,
    );
    let body: unknown;
    try {
      body = JSON.parse(decodedBody(response));
    } catch {
      expect(false, `${where}: the body is not valid JSON`, response);
    }
    const validate = this.validator(pointer);
    if (!validate(body)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
      expect(
        false,
        `${where}: the body does not match the documented schema (${pointer.replace('#/', '')}): ${errors}`,
        response,
      );
    }
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }
}

function expect(ok: boolean, message: string, response: Response): asserts ok {
  if (ok) return;
  const body = response.payload.length > 500 ? `${response.payload.slice(0, 500)}…` : response.payload;
  throw new AssertionError({ message: `OpenAPI conformance: ${message}\n  body: ${body}` });
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/$/, '') : path;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/** The body as JSON text, undoing a Content-Encoding (src/http/content-coding.ts). */
export function decodedBody(response: Pick<Response, 'headers' | 'rawPayload'>): string {
  const coding = response.headers['content-encoding'];
  if (response.rawPayload.length === 0) return ''; // a HEAD answer names its coding, yet has no body
  if (coding === 'br') return brotliDecompressSync(response.rawPayload).toString();
  if (coding === 'gzip') return gunzipSync(response.rawPayload).toString();
  return response.rawPayload.toString();
}
