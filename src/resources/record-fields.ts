import { Type } from 'typebox';
import { AMOUNT_DESCRIPTION, MAX_AMOUNT } from '../http/amounts.js';

// Field schemas shared by the records of an import file and an export (docs/API.md, "Import
// format"): the API's record shapes, where every field with a default may be left out and
// `id` may be left out to take the next free id.

const handleRule = {
  maxLength: 128,
  pattern: '^(?![0-9]+$)[a-z0-9]+(-[a-z0-9]+)*$',
  description: 'a handle: lower-case letters and digits in words joined by single hyphens, not all digits',
};
export const Handle = Type.String(handleRule);
export const Bool = Type.Boolean();
// Times from year 1 to 9999: every backend stores them as the same 64-bit integer (an
// unbounded one would be a REAL in SQLite and an error in PostgreSQL's bigint).
export const Timestamp = Type.Integer({
  minimum: -62_135_596_800,
  maximum: 253_402_300_799,
  description: 'unix seconds',
});
export const Count = (max: number) => Type.Integer({ minimum: 0, maximum: max });
export const Money = Type.Integer({ minimum: 0, maximum: MAX_AMOUNT, description: AMOUNT_DESCRIPTION });
export const Text = (maxLength: number) => Type.String({ maxLength });
export const Currency = () =>
  Type.String({ pattern: '^[A-Z]{3}$', description: 'a three-letter ISO 4217 code such as USD' });
/**
 * A handle naming a record (the products batch): the same rule as a record's own, written
 * without a lookahead, which schema-driven tools (fast-check, Prism's generator) cannot
 * read: a letter in a single word, or several words.
 */
export const HandleRef = (description: string) =>
  Type.String({
    ...handleRule,
    pattern: '^([a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+(-[a-z0-9]+)+)$',
    description: `${handleRule.description}; ${description}`,
  });
export const strict = { additionalProperties: false } as const;
