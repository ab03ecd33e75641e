import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { MIN_COMPRESS_BYTES, encode, negotiateCoding } from '../http/content-coding.js';
import { codingEtag, etagOf, ifNoneMatchHits } from '../http/etag.js';

// Cache-Control, ETag and compression for every answer (docs/API.md, "HTTP behaviour" and
// "Compression"). Answers that depend on a key are private and never stored; everything
// else may be stored but must be revalidated, which the ETag makes cheap: a matching
// If-None-Match gets a 304. A GET answer of 1 KiB or more goes out gzip- or
// brotli-encoded when the client asks for it, with the ETag of that coding (`"abc-br"`); the
// tag of any coding of the current version revalidates.
//
// Its onSend must run after the answer cache's (which stores the 200 answer and sets its
// ETag): the dependency on 'answer-cache' makes Fastify refuse to start in the other order.

export interface HttpCachingOptions {
  /** CDN_MAX_AGE: seconds a shared cache may serve a public answer without asking (RFC 9213) */
  cdnMaxAge?: number;
}

export default fp(
  async function httpCaching(app: FastifyInstance, options: HttpCachingOptions) {
    const cdnCacheControl = options.cdnMaxAge
      ? `public, max-age=${options.cdnMaxAge}, stale-while-revalidate=${options.cdnMaxAge}`
      : null;

    // A plain callback, not an async hook: it runs on every answer (see request-id.ts).
    app.addHook('onSend', (request, reply, payload, done) => {
      reply.header('cache-control', request.isPrivate ? 'private, no-store' : 'public, no-cache');
      if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload)))
        return done(null, payload);
      // An answer of the answer cache comes with the ETag stored beside it.
      const etag = (reply.getHeader('etag') as string | undefined) ?? etagOf(payload);
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        reply.header('etag', etag);
        return done(null, payload);
      }
      if (cdnCacheControl !== null && !request.isPrivate) reply.header('cdn-cache-control', cdnCacheControl);
      addVary(reply, 'Accept-Encoding');
      const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
      const coding = size >= MIN_COMPRESS_BYTES ? negotiateCoding(request.headers['accept-encoding']) : null;
      reply.header('etag', codingEtag(etag, coding));

      if (ifNoneMatchHits(request.headers['if-none-match'], etag)) {
        // No body, and so no Content-Type and no Content-Length (RFC 9110 15.4.5). The payload
        // must be null, not '': Fastify sets Content-Length from any string or Buffer sent,
        // after every onSend hook, which is why removing the header alone did nothing.
        // HEAD: Fastify's own last onSend of a HEAD route sets Content-Length from a string or
        // Buffer, to 0 for undefined, and fails on null; an empty stream it only drains.
        reply.code(304);
        reply.removeHeader('content-type');
        reply.removeHeader('content-length');
        return done(null, request.method === 'HEAD' ? Readable.from([]) : null);
      }
      if (coding === null) return done(null, payload);

      reply.header('content-encoding', coding);
      const cached = request.cachedAnswer;
      const made = cached?.encoded[coding];
      if (made !== undefined) return done(null, made);
      encode(coding, typeof payload === 'string' ? Buffer.from(payload) : payload).then(
        (bytes) => {
          // Made once per stored answer: the next hit in this coding sends these bytes.
          if (cached !== null && app.answers !== null) app.answers.addEncoding(cached, coding, bytes);
          done(null, bytes);
        },
        (error: Error) => done(error),
      );
    });
  },
  { name: 'http-caching', dependencies: ['project-scope', 'answer-cache'] },
);

/** Adds a name to Vary, keeping what other hooks put there. */
function addVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined || current === '') reply.header('vary', name);
  else if (
    !String(current)
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes(name.toLowerCase())
  )
    reply.header('vary', `${String(current)}, ${name}`);
}
