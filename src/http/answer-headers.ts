// Headers fitting a JSON API (src/plugins/security-headers.ts sends them). Every answer: no
// MIME sniffing, no referrer, no framing (X-Frame-Options: DENY; where a page has its own
// CSP `frame-ancestors`, as /docs does, browsers follow that instead). JSON answers (and
// empty ones) also get a CSP that allows nothing at all: a JSON body is never a document to
// render, so if a browser is tricked into showing one, nothing in it runs.

export const STRICT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The headers of every JSON answer, for the few answers that bypass the hooks. */
export const JSON_ANSWER_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': STRICT_CSP,
};
