import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

// An API key is `sfk_` + 32 base62 characters of randomness (about 190 bits) + a 6-character
// base62 CRC32 of the rest. The prefix lets secret scanners recognise a leaked key; the
// checksum refuses a mistyped or made-up key before any database work. Only the SHA-256 of
// the key is stored. An admin key (src/keys/admin.ts) has the same form with its own prefix,
// `sfa_`, so that neither can pass for the other, and a scanner tells them apart.

const PREFIX = 'sfk_';
export const ADMIN_PREFIX = 'sfa_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 32;
const CHECK_LENGTH = 6;
const BODY = `[0-9A-Za-z]{${BODY_LENGTH + CHECK_LENGTH}}`;
const KEY_PATTERNS = {
  [PREFIX]: new RegExp(`^${PREFIX}${BODY}$`),
  [ADMIN_PREFIX]: new RegExp(`^${ADMIN_PREFIX}${BODY}$`),
};

function base62(bytes: Buffer, length: number): string {
  let out = '';
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  let source = bytes;
  let i = 0;
  while (out.length < length) {
    if (i >= source.length) {
      source = randomBytes(length);
      i = 0;
    }
    const b = source[i++];
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

function checksum(text: string): string {
  let n = crc32(text);
  let out = '';
  for (let i = 0; i < CHECK_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function generateKey(prefix: typeof PREFIX | typeof ADMIN_PREFIX = PREFIX): string {
  const body = prefix + base62(randomBytes(48), BODY_LENGTH);
  return body + checksum(body);
}

/** True when the text has the shape and checksum of a key this service issued. */
export function isWellFormedKey(key: string, prefix: typeof PREFIX | typeof ADMIN_PREFIX = PREFIX): boolean {
  if (!KEY_PATTERNS[prefix].test(key)) return false;
  const cut = key.length - CHECK_LENGTH;
  return checksum(key.slice(0, cut)) === key.slice(cut);
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
