import { constants, brotliCompress, gzip } from 'node:zlib';

// Compression of GET answers (docs/API.md, "Compression"): which coding a request gets, and
// the encoded bytes. @fastify/compress was weighed and left out: it compresses in a stream
// per request and knows nothing of our ETags, while each coding here needs its own strong
// ETag and a cached answer's encoded bytes are kept beside it (answer-cache.ts).

export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/** Answers smaller than this go out as they are: the saving would not pay for the work. */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * The coding to send for an Accept-Encoding header, or null for none (identity). The highest
 * q-value wins, `br` on a tie; `q=0` refuses a coding even when `*` would allow it (RFC 9110
 * 12.5.3). @fastify/accept-negotiator lets `*` bring back a coding refused by name, hence
 * these few lines of our own.
 */
export function negotiateCoding(header: string | undefined): Coding | null {
  if (!header) return null;
  const q: Record<string, number> = {};
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let quality = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key.trim().toLowerCase() === 'q') {
        const parsed = Number(value?.trim());
        quality = Number.isFinite(parsed) && parsed >= 0 && parsed <= 1 ? parsed : 0;
      }
    }
    q[coding === 'x-gzip' ? 'gzip' : coding] = quality;
  }
  const of = (coding: Coding) => q[coding] ?? q['*'] ?? 0;
  const br = of('br');
  const gz = of('gzip');
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : null;
}

// Brotli at quality 4 compresses JSON about as well as gzip -6 in a fraction of brotli's
// default (11) time, so an answer made per request keeps the API's rate (docs/PERFORMANCE.md,
// "Compression"); gzip keeps zlib's default level.
const BROTLI_QUALITY = 4;

/** The encoded bytes, made on libuv's thread pool so the event loop keeps serving. */
export function encode(coding: Coding, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (coding === 'br') {
      brotliCompress(
        bytes,
        {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        },
        done,
      );
    } else {
      gzip(bytes, done);
    }
  });
}
