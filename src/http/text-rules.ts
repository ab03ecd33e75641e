import type { FastifyRequest } from 'fastify';
import { invalid } from '../errors.js';

// PostgreSQL cannot store or compare text holding U+0000 (it errors where SQLite goes on),
// so the API refuses that one character everywhere text comes in, on both backends alike:
// query values, JSON bodies and import records. No real name, email or search holds it.

const NUL = '\u0000';

/** The path of the first string holding U+0000 (`name`, `items[2].name`), or undefined. */
export function fieldWithNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path || 'body' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = fieldWithNul(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes(NUL)) return path ? `${path}.${k}` : k;
      const found = fieldWithNul(v, path ? `${path}.${k}` : k);
      if (found) return found;
    }
  }
  return undefined;
}

export const NUL_RULE = 'must not contain the NUL character (U+0000)';

/** preValidation: a 400 naming the query parameter or body field that holds U+0000. */
export async function refuseNul(request: FastifyRequest): Promise<void> {
  const field = fieldWithNul(request.query) ?? fieldWithNul(request.body);
  if (field) throw invalid(field, NUL_RULE);
}
