import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AnswerStore } from '../cache/answer-store.js';
import { versionedKey } from '../cache/versioned-key.js';
import type { CacheConfig } from '../config.js';
import { etagOf } from '../http/etag.js';
import { addRouteHook } from '../http/route-hooks.js';

// Answers of the routes declared with `config: { answerCache: true }` (the products and
// orders lists, a single product), as the serialised JSON sent and its ETag, keyed by
// project, data_version and the request URL. A hit skips the handler: the database, the
// presenter, the serialiser and the hashing; the ETag is the one http-caching.ts would
// compute for the same bytes, so revalidation works alike for hits and misses. Beside each
// answer are its CDN tags (cdn-tags.ts) and, once a client asked for them, its gzip and
// brotli bytes (http-caching.ts), so that a hit compresses nothing.
//
// Answers that need a key (fetch_hidden=true, orders) are kept in this process's memory like
// the public ones and handed out only after the request's own key passed the check of
// project-scope.ts, an onRequest hook; they depend on the project, never on which of its
// keys asked, and still go out as `private, no-store`.
//
// STOREFRONT_ANSWER_CACHE=0 turns it off (src/config.ts; the bench uses it to measure the
// queries alone).

export default fp(
  async function answerCache(app: FastifyInstance, options: { caches: CacheConfig }) {
    app.decorateRequest('answerKey', null);
    app.decorateRequest('cachedAnswer', null);
    const store = options.caches.answers ? new AnswerStore(options.caches.answerBytes) : null;
    app.decorate('answers', store);
    if (!store) return;

    // After validation (a bad query is a 400, never a stored answer) and the key budget of
    // rate-limit.ts: the last step before the handler, as the handler's first line was.
    const lookup: preHandlerHookHandler = (request, reply, done) => {
      const key = versionedKey(request.project, request.url);
      const hit = store.get(key);
      if (hit === undefined) {
        request.answerKey = key;
        return done();
      }
      request.cachedAnswer = hit;
      request.cacheTags = hit.cacheTags;
      // A Buffer is sent as is, past the route's serialiser; kept as bytes, a large answer is
      // not encoded to UTF-8 again for every request.
      reply.type('application/json; charset=utf-8').header('etag', hit.etag).send(hit.payload);
    };
    app.addHook('onRoute', (route) => {
      if (route.config?.answerCache) addRouteHook(route, 'preHandler', lookup);
    });

    // App-wide, so that it runs before the onSend of http-caching.ts (which depends on this
    // plugin): the 200 answer is stored before an ETag match turns it into a 304.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.answerKey !== null && reply.statusCode === 200 && typeof payload === 'string') {
        const bytes = Buffer.from(payload);
        const etag = etagOf(bytes);
        reply.header('etag', etag);
        const answer = { key: request.answerKey, payload: bytes, etag, cacheTags: request.cacheTags, encoded: {} };
        store.set(answer);
        request.cachedAnswer = answer;
        return done(null, bytes);
      }
      done(null, payload);
    });
  },
  { name: 'answer-cache', dependencies: ['project-scope', 'cdn-tags'] },
);
