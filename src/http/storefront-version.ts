import { invalid } from '../errors.js';

// The Storefront-Version request header (CONTRACT 16): the highest version of the project the
// caller has seen, a whole number. Anything else (a sign, a fraction, two values) is a 400: a
// caller that sends it relies on it, and a silently ignored value would read an older state.

export const VERSION_HEADER = 'storefront-version';

/** The version a request asks for; 0 when it sends none. */
export function askedVersion(value: string | string[] | undefined): number {
  if (value === undefined) return 0;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim()))
    throw invalid('Storefront-Version', 'must be a whole number, the highest version of the project you have seen');
  return Number(value.trim());
}
