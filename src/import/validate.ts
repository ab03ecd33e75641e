import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';
import { ajvDetails } from '../http/validation.js';
import type { ErrorDetail } from '../errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
addFormats(ajv);

const compiled = new Map<string, ValidateFunction>();
function validator(schema: TSchema): ValidateFunction {
  let v = compiled.get(schema as unknown as string);
  if (!v) {
    v = ajv.compile(schema);
    compiled.set(schema as unknown as string, v);
  }
  return v;
}

/** The problems of one record checked against its schema, empty when it is valid; `currency` names an amount's unit. */
export function checkRecord(schema: TSchema, value: unknown, currency?: string): ErrorDetail[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [{ field: '', message: 'must be a JSON object' }];
  const v = validator(schema);
  if (v(value)) return [];
  return ajvDetails((v.errors ?? []) as never, 'field', '', currency);
}
