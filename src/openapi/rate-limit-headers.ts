// Every operation of the document is rate-limited (src/plugins/rate-limit.ts), and every one
// of its answers, errors and 304s included, carries the RateLimit-* headers of the budget
// closer to running out (docs/API.md, "Rate limits"); a 429 adds Retry-After (its shared
// response says so). The headers are described once under components/headers and referred
// to from each answer. They are absent when the server runs with RATE_LIMIT=off, which
// OpenAPI allows: a response header is optional unless marked required.

type Json = Record<string, unknown>;

const HEADERS: Record<string, Json> = {
  'RateLimit-Limit': {
    description: 'requests allowed per window by the budget closer to running out (the address or the key)',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': {
    description: 'requests left in the current window of that budget',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'seconds until the current window ends',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Policy': {
    description: 'the policy of that budget, `<limit>;w=<window seconds>`',
    schema: { type: 'string', pattern: '^[0-9]+;w=[0-9]+$' },
  },
};

const refs = Object.fromEntries(Object.keys(HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));

export function addRateLimitHeaders(document: Json): void {
  let used = false;
  const withHeaders = (response: Json) => {
    response.headers = { ...(response.headers as Json | undefined), ...refs };
    used = true;
  };
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const operation of Object.values(item)) {
      for (const response of Object.values((operation.responses ?? {}) as Record<string, Json>)) {
        if (!response.$ref) withHeaders(response);
      }
    }
  }
  const components = (document.components ?? {}) as Json;
  for (const response of Object.values((components.responses ?? {}) as Record<string, Json>)) withHeaders(response);
  if (used) components.headers = { ...(components.headers as Json | undefined), ...HEADERS };
}
