import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is `whsec_`
// and base64 key bytes; the signature is `v1,` and the base64 HMAC-SHA256 of
// `<webhook-id>.<webhook-timestamp>.<body>`. Signed here with node:crypto (a few lines, and
// much faster than the package's pure-JS SHA-256); the tests verify every delivery with the
// `standardwebhooks` package itself.

export const SECRET_PREFIX = 'whsec_';

/** A new secret: 32 random bytes (the specification asks for 24 to 64). */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function signature(secret: string, msgId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`).digest('base64')}`;
}

/** The webhook-signature header: one signature per secret, space-separated (during a roll, two). */
export function signatureHeader(secrets: string[], msgId: string, timestamp: number, body: string): string {
  return secrets.map((s) => signature(s, msgId, timestamp, body)).join(' ');
}
