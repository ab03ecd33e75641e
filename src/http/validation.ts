import type { FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { ApiError, type ErrorDetail } from '../errors.js';
import { AMOUNT_DESCRIPTION, amountRule } from './amounts.js';

// Query strings carry only strings. Fastify's Ajv would coerce them loosely ("1e2", " 5",
// "+5" all become numbers) and silently drop unknown names; the API wants plain digits,
// exact `true`/`false`, and a 400 for anything else (docs/API.md, "Conventions"). So coercion is switched off in Ajv and
// done here, strictly, from the route's own query schema; Ajv then checks ranges and names.

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; [k: string]: unknown };

export function coerceQuery(request: FastifyRequest): void {
  const schema = request.routeOptions.schema?.querystring as JsonSchema | undefined;
  const query = request.query as Record<string, unknown>;
  if (!query || typeof query !== 'object') return;
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value))
      throw new ApiError(400, `${name} must be given once`, [{ field: name, message: 'must be given once' }]);
    const type = schema?.properties?.[name]?.type;
    if (typeof value !== 'string') continue;
    checkText(value, name);
    // Any count of digits: an id of 16 digits is in range (up to 2^53-1), and leading zeros
    // change nothing. Past 2^53-1 the number is inexact, but then the schema's maximum refuses it.
    if (type === 'integer' && /^[0-9]+$/.test(value)) query[name] = Number(value);
    else if (type === 'boolean' && (value === 'true' || value === 'false')) query[name] = value === 'true';
  }
}

/**
 * Path ids are integers in the route schemas (PathId). A segment of plain digits becomes its
 * number; any other segment is left a string, which then fails `type` and is answered 404
 * (src/http/error-mapping.ts), never loosely coerced as Ajv would (`1e3`, `0x10`, ` 5`).
 */
export function coerceParams(request: FastifyRequest): void {
  const schema = request.routeOptions.schema?.params as JsonSchema | undefined;
  const params = request.params as Record<string, unknown> | undefined;
  if (!schema?.properties || !params || typeof params !== 'object') return;
  for (const [name, value] of Object.entries(params)) {
    if (schema.properties[name]?.type === 'integer' && typeof value === 'string' && /^[0-9]+$/.test(value))
      params[name] = Number(value);
  }
}

// No text this API stores or matches may hold a NUL character (PostgreSQL cannot store
// one, and SQLite would cut the text there) or an unpaired UTF-16 surrogate (not Unicode:
// PostgreSQL would store a replacement character, SQLite bytes that read back mangled).
function nulError(field: string): ApiError {
  return new ApiError(400, `${field} must not contain NUL characters`, [
    { field, message: 'must not contain NUL characters' },
  ]);
}

const UNPAIRED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function checkText(text: string, field: string): void {
  if (text.includes('\u0000')) throw nulError(field);
  if (UNPAIRED.test(text))
    throw new ApiError(400, `${field} must be valid Unicode text`, [
      { field, message: 'must be valid Unicode text (an unpaired surrogate)' },
    ]);
}

/**
 * Walks a parsed JSON body and refuses any string (or key) holding a NUL character or an
 * unpaired surrogate. Iterative, not recursive: a body nested 100,000 levels deep is valid
 * JSON and must not overflow the stack (that was a 500).
 */
export function rejectNul(value: unknown, path: string): void {
  const stack: Array<[unknown, string]> = [[value, path]];
  while (stack.length > 0) {
    const [item, field] = stack.pop()!;
    if (typeof item === 'string') checkText(item, field);
    else if (item && typeof item === 'object') {
      for (const [k, v] of Object.entries(item)) {
        const name = field === 'body' ? k : `${field}.${k}`;
        checkText(k, name);
        stack.push([v, name]);
      }
    }
  }
}

/** A sentence saying what a value must be, read off its schema, for error messages. */
export function describeRule(schema: JsonSchema | undefined, keyword?: string, currency?: string): string | undefined {
  if (!schema) return undefined;
  if (schema.description === AMOUNT_DESCRIPTION) return amountRule(keyword, currency);
  if (keyword === 'pattern')
    return schema.description ? `must be ${schema.description as string}` : `must match ${schema.pattern as string}`;
  const literals = literalValues(schema);
  if (literals) return `must be one of ${literals.join(', ')}`;
  const min = schema.minimum as number | undefined;
  const max = schema.maximum as number | undefined;
  switch (schema.type) {
    case 'integer':
      if (min !== undefined && max !== undefined) return `must be an integer from ${min} to ${max}`;
      if (min !== undefined) return `must be an integer of at least ${min}`;
      return 'must be an integer';
    case 'boolean':
      return 'must be true or false';
    case 'string': {
      if (schema.format === 'email') return 'must be a valid email address';
      const minLength = schema.minLength as number | undefined;
      const maxLength = schema.maxLength as number | undefined;
      if (minLength !== undefined && maxLength !== undefined)
        return `must be a string of ${minLength} to ${maxLength} characters`;
      if (maxLength !== undefined) return `must be a string of at most ${maxLength} characters`;
      if (minLength) return `must be a string of at least ${minLength} characters`;
      return 'must be a string';
    }
    case 'array': {
      const minItems = schema.minItems as number | undefined;
      const maxItems = schema.maxItems as number | undefined;
      if (minItems !== undefined && maxItems !== undefined)
        return `must be an array of ${minItems} to ${maxItems} items`;
      return 'must be an array';
    }
    case 'object':
      return 'must be an object';
  }
  return undefined;
}

function literalValues(schema: JsonSchema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum as unknown[];
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(options) && options.every((o) => 'const' in o)) return options.map((o) => o.const);
  // A boolean-or-string-literal union (is_canceled: true/false/"true"/"false").
  if (Array.isArray(options) && options.every((o) => 'const' in o || o.type === 'boolean')) return ['true', 'false'];
  return undefined;
}

/** Ajv errors as { field, message } pairs, one per field. `where` names what an unknown key is. */
export function ajvDetails(
  errors: FastifySchemaValidationError[],
  where: 'parameter' | 'field',
  root: string,
  /** the project's currency, for the example of an amount's rule (amounts.ts) */
  currency?: string,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const e of errors as Array<FastifySchemaValidationError & { parentSchema?: JsonSchema }>) {
    const path = fieldPath(e.instancePath);
    const params = e.params;
    let detail: ErrorDetail;
    if (e.keyword === 'additionalProperties') {
      detail = { field: join(path, String(params.additionalProperty)), message: `is not a known ${where}` };
    } else if (e.keyword === 'required') {
      detail = { field: join(path, String(params.missingProperty)), message: 'is required' };
    } else if (e.keyword === 'minProperties' && path === '') {
      detail = { field: root, message: 'must name at least one field to change' };
    } else {
      const rule = describeRule(e.parentSchema, e.keyword, currency) ?? e.message ?? 'is invalid';
      detail = { field: path || root, message: rule };
    }
    if (!details.some((d) => d.field === detail.field)) details.push(detail);
  }
  return details;
}

/** Turns Ajv's errors for one part of the request into a 400 naming each field. */
export function validationError(errors: FastifySchemaValidationError[], context: string, currency?: string): ApiError {
  const details = ajvDetails(
    errors,
    context === 'querystring' ? 'parameter' : 'field',
    context === 'body' ? 'body' : context,
    currency,
  );
  const first = details[0] ?? { field: context, message: 'is invalid' };
  return new ApiError(400, `${first.field} ${first.message}`, details);
}

function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}
