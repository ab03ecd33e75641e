import type { FastifyRequest } from 'fastify';
import { parse } from 'secure-json-parse';
import { ApiError } from '../errors.js';

// The one parser of request bodies (application/json), replacing Fastify's default, which
// decodes bytes leniently (invalid UTF-8 became U+FFFD and was stored altered), ignores the
// charset parameter, and reports broken JSON and a prototype-poisoning key with one error.
// Here: a charset other than UTF-8 is a 415, bytes that are not UTF-8 a 400, and broken JSON
// and a `__proto__` / constructor.prototype key are two different 400s (docs/API.md, "Errors").

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

// `charset=` is the only parameter that changes how the bytes read; quoted or not, any case.
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

export function checkCharset(contentType: string | undefined): void {
  const charset = CHARSET.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    throw new ApiError(415, 'request body must be sent as Content-Type: application/json (charset=utf-8 or none)');
}

function bodyError(message: string): ApiError {
  return new ApiError(400, `request body ${message}`, [{ field: 'body', message }]);
}

export function parseJsonBody(request: FastifyRequest, bytes: Buffer): unknown {
  checkCharset(request.headers['content-type']);
  if (bytes.length === 0) throw bodyError('is empty; send a JSON object');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw bodyError('is not valid UTF-8 text');
  }
  try {
    return parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    // secure-json-parse parses first (a SyntaxError from JSON.parse for broken JSON), then
    // scans the result and throws its own SyntaxError naming the forbidden property.
    if (/forbidden (prototype|constructor) property/.test((error as Error).message))
      throw bodyError('holds a __proto__ or constructor.prototype key, which is not accepted');
    throw bodyError('is not valid JSON');
  }
}
