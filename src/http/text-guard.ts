import type { FastifyRequest } from 'fastify';
import { invalid } from '../errors.js';

// Text that no backend stores faithfully is refused up front, the same way on SQLite and
// PostgreSQL: a NUL character (PostgreSQL text cannot hold one, and the query fails) and
// an unpaired UTF-16 surrogate (not Unicode at all; it would be stored mangled). Every
// string of the path, the query and the JSON body (keys too) is checked, so that each
// resource does not have to remember to.

const RULE = 'must not contain NUL characters or unpaired surrogates';

const UNPAIRED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function bad(text: string): boolean {
  return text.includes('\u0000') || UNPAIRED.test(text);
}

export function guardText(request: FastifyRequest): void {
  for (const value of [request.params, request.query, request.body]) {
    // Iterative, not recursive: a body nested 100,000 levels deep must not overflow the stack.
    const stack: Array<[string, unknown]> = [['', value]];
    while (stack.length > 0) {
      const [field, item] = stack.pop()!;
      if (typeof item === 'string') {
        if (bad(item)) throw invalid(field || (value === request.body ? 'body' : 'parameter'), RULE);
      } else if (item && typeof item === 'object') {
        for (const [key, child] of Object.entries(item)) {
          const name = field ? `${field}.${key}` : key;
          if (bad(key)) throw invalid(field || 'body', `has a field name that ${RULE}`);
          stack.push([name, child]);
        }
      }
    }
  }
}
