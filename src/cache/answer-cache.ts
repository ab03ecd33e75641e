import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagOf } from '../http/caching.js';
import { Lru } from './lru.js';
import { versionedKey } from './versioned-key.js';

// Answers of the products and orders lists and of a single product, as the serialised JSON
// sent and its ETag, keyed by project, data_version and the request URL. A hit skips the
// database, the presenter, the serialiser and the hashing; the ETag is the one
// src/http/caching.ts computes for the same bytes, so revalidation works alike for hits and
// misses. Answers that need a key (fetch_hidden=true, orders) are kept in this process's
// memory like the public ones and handed out only after the request's own key passed the
// check in src/http/project-scope.ts, which runs before any handler; they depend on the
// project, never on which of its keys asked, and still go out as `private, no-store`.
//
// STOREFRONT_ANSWER_CACHE=0 turns it off (the bench uses it to measure the queries alone).

declare module 'fastify' {
  interface FastifyRequest {
    /** set by a handler whose 200 answer may be stored under this key */
    answerKey: string | null;
  }
}

const MAX_BYTES = Number(process.env.STOREFRONT_ANSWER_CACHE_BYTES ?? 32 * 1024 * 1024);

export function registerAnswerCache(app: FastifyInstance): void {
  const enabled = process.env.STOREFRONT_ANSWER_CACHE !== '0';
  const cache = new Lru<{ payload: Buffer; etag: string }>(MAX_BYTES, (a) => a.payload.length + 64);
  app.decorateRequest('answerKey', null);
  app.decorate('answerCache', {
    /** the stored answer for this request, as the JSON bytes sent; undefined on a miss */
    lookup(request: FastifyRequest, reply: FastifyReply): Buffer | undefined {
      if (!enabled) return undefined;
      const key = versionedKey(request.project, request.url);
      const hit = cache.get(key);
      if (hit !== undefined) {
        // A Buffer is sent as is, past the route's serialiser; kept as bytes, a large answer is
        // not encoded to UTF-8 again for every request.
        reply.type('application/json; charset=utf-8');
        reply.header('etag', hit.etag);
        return hit.payload;
      }
      request.answerKey = key;
      return undefined;
    },
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.answerKey !== null && reply.statusCode === 200 && typeof payload === 'string') {
      const bytes = Buffer.from(payload);
      const etag = etagOf(bytes);
      reply.header('etag', etag);
      cache.set(request.answerKey, { payload: bytes, etag });
      return done(null, bytes);
    }
    done(null, payload);
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    answerCache: { lookup(request: FastifyRequest, reply: FastifyReply): Buffer | undefined };
  }
}
