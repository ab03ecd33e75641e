import { type TSchema, Type } from 'typebox';
import { type ErrorStatus, MAX_DETAILS, codeFor } from '../errors.js';

/** A project id: 1 to 64 of a-z, 0-9, _ and -, starting with a letter or digit. */
export const PROJECT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

// Building blocks shared by every resource's schemas. These schemas validate requests,
// serialise responses and (later) make the OpenAPI document: one source of truth.

export const MAX_ID = Number.MAX_SAFE_INTEGER;

export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });
export const Timestamp = Type.Integer({ description: 'unix seconds' });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      status: Type.Integer(),
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(
        Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
          maxItems: MAX_DETAILS,
          description: 'each bad field or parameter, at most 20',
        }),
      ),
      more_details: Type.Optional(
        Type.Integer({ minimum: 1, description: 'how many further problems were found but not listed' }),
      ),
    }),
  },
  { $id: 'Error', description: 'Every error answer has this shape.' },
);

/** Response schemas for the error statuses a route can answer. */
export function errorResponses(...statuses: ErrorStatus[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) out[status] = Type.Ref('Error', { description: codeFor(status) });
  return out;
}

export const Page = Type.Integer({
  minimum: 1,
  maximum: 1_000_000_000,
  default: 1,
  description: 'page number, default 1',
  examples: [1],
});
export const PerPage = Type.Integer({
  minimum: 1,
  maximum: 100,
  default: 20,
  description: 'page size, default 20',
  examples: [20],
});

export const ListMeta = Type.Object({
  page: Type.Integer(),
  perpage: Type.Integer(),
  total: Type.Integer({ description: 'records matching the filters, on every page' }),
  pages: Type.Integer(),
});

/** `{ data: [...], meta: {...} }`, the envelope of the users, products and orders lists. */
export function PagedList<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), meta: ListMeta });
}

export function pageMeta(page: number, perpage: number, total: number) {
  return { page, perpage, total, pages: Math.ceil(total / perpage) };
}

/** For routes that take no query parameters: any parameter is a 400 naming it. */
export const EmptyQuery = Type.Object({}, { additionalProperties: false });

// Path parameters. Their patterns tell tools (fuzzers, generated clients) what a value looks
// like; a value that breaks one names nothing, so it is a 404 like any unknown id
// (src/http/error-mapping.ts), never a 400. Examples are the demo project's (README.md).

export const ProjectId = Type.String({
  pattern: PROJECT_ID.source,
  description: 'the project id',
  examples: ['demo'],
});
export const ProjectParams = Type.Object({ project_id: ProjectId });

/**
 * `<plan_id>`, `<user_id>`, `<order_id>`, key and endpoint ids: integers, as the records' ids
 * are, so that a generated client takes `order.id` as it is. The segment is converted strictly
 * before validation (coerceParams: plain digits only); anything else stays a string, fails
 * `type`, and is a 404 like any id that names nothing.
 */
export const PathId = (what: string, example = 1) =>
  Type.Integer({ minimum: 1, maximum: MAX_ID, description: `${what} id`, examples: [example] });

/** `<product>`, `<category>`: all digits is an id, anything else a handle (at most 128 characters). */
export const IdOrHandle = (what: string, example: string) =>
  Type.String({
    pattern: '^([0-9]+|[a-z0-9]+(-[a-z0-9]+)*)$',
    maxLength: 128,
    description: `${what} id (digits), or its handle (at most 128 characters)`,
    examples: [example],
  });
