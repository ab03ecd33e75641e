import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

// Cache-Control and ETag for every answer (CONTRACT 8). Answers that depend on a key are
// private and never stored; everything else may be stored but must be revalidated, which
// the ETag makes cheap: a matching If-None-Match gets an empty 304.

declare module 'fastify' {
  interface FastifyRequest {
    /** set when the answer depends on the caller's key */
    isPrivate: boolean;
  }
}

export function registerCaching(app: FastifyInstance): void {
  app.decorateRequest('isPrivate', false);
  // A plain callback, not an async hook: it runs on every answer (see plugins/request-id.ts).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('cache-control', request.isPrivate ? 'private, no-store' : 'public, no-cache');
    if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload)))
      return done(null, payload);
    // An answer from the answer cache (src/cache/) comes with the ETag stored beside it.
    const etag = (reply.getHeader('etag') as string | undefined) ?? etagOf(payload);
    reply.header('etag', etag);
    if ((request.method === 'GET' || request.method === 'HEAD') && matches(request, etag)) {
      reply.code(304);
      reply.removeHeader('content-length');
      return done(null, '');
    }
    done(null, payload);
  });
}

export function etagOf(payload: string | Buffer): string {
  return `"${createHash('sha1').update(payload).digest('base64url')}"`;
}

/** If-None-Match: a list of entity tags, weak or strong, or `*`; compared weakly (RFC 9110 13.1.2). */
function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
