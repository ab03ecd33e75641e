import { ApiError, invalid } from '../errors.js';
import { MAX_ID } from './schemas.js';

// Path segments and the few query values whose syntax a JSON schema cannot state well.

export type Ref = { id: number } | { handle: string };

export const HANDLE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** `<product>` / `<category>`: all digits is an id, anything else a handle; anything unusable is 404. */
export function parseRef(segment: string, what: string): Ref {
  if (/^[0-9]+$/.test(segment)) return { id: parseId(segment, what) };
  if (segment.length <= 128 && HANDLE.test(segment)) return { handle: segment };
  throw new ApiError(404, `${what} ${JSON.stringify(segment)} not found`);
}

/** A path id: a positive integer in range, or 404. */
export function parseId(segment: string, what: string): number {
  const n = /^[0-9]+$/.test(segment) ? Number(segment) : 0;
  if (n < 1 || n > MAX_ID) throw new ApiError(404, `${what} ${JSON.stringify(segment)} not found`);
  return n;
}

/** `ids=3,5,9`: 1 to 100 positive integers, repeats counted once. */
export function parseIdList(value: string, field = 'ids', max = 100): number[] {
  const rule = `must be a comma-separated list of 1 to ${max} positive integer ids`;
  if (value === '') throw invalid(field, rule);
  const ids = new Set<number>();
  for (const part of value.split(',')) {
    const n = /^[0-9]+$/.test(part) ? Number(part) : 0;
    if (n < 1 || n > MAX_ID) throw invalid(field, rule);
    ids.add(n);
  }
  if (ids.size > max) throw invalid(field, rule);
  return [...ids];
}
