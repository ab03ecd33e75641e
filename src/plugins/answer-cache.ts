import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AnswerStore, type CachedAnswer } from '../cache/answer-store.js';
import { ProductChanges } from '../cache/product-changes.js';
import { type CacheKind, RECORD_VERSIONED, readsStock } from '../cache/invalidation.js';
import { versionedKey } from '../cache/versioned-key.js';
import type { CacheConfig } from '../config.js';
import { etagOf } from '../http/etag.js';
import { addRouteHook } from '../http/route-hooks.js';

// Answers of the routes declared with `config: { answerCache: <kind> }` (the products and
// orders lists, a single product, the change feed), as the serialised JSON sent and its
// ETag, keyed by project, the versions of the record types that kind of answer shows
// (src/cache/versioned-key.ts: an order update leaves product answers valid) and the request
// URL. A hit skips the handler: the database, the presenter, the serialiser and the hashing;
// the ETag is the one http-caching.ts would compute for the same bytes, so revalidation works
// alike for hits and misses. Beside each answer are its CDN tags (cdn-tags.ts) and, once a
// client asked for them, its gzip and brotli bytes (http-caching.ts), so that a hit
// compresses nothing.
//
// Single-flight: the first miss of a key computes the answer; requests that miss the same key
// meanwhile wait for it and are sent the stored bytes (after a write, every connection asking
// for a popular page missed at once, and each computed it). The key holds the versions the
// waiting request read for itself, after it arrived, so it is shared only with requests that
// read the same state of what the answer shows. When the first one ends without a storable
// answer (an error, a 404), each waiter computes its own.
//
// Products answers are also versioned product by product (invalidation.ts, RECORD_VERSIONED):
// one stored under the same key at an older products_version is sent again, and marked right
// at the newer one, when none of the products it shows changed since (product-changes.ts
// reads which did from the change log, once per version and process). A stock update of one
// product so costs the answers that show it, not every answer of the project.
//
// Answers that need a key (fetch_hidden=true, orders) are kept in this process's memory like
// the public ones and handed out only after the request's own key passed the check of
// project-scope.ts, an onRequest hook; they depend on the project, never on which of its
// keys asked, and still go out as `private, no-store`.
//
// STOREFRONT_ANSWER_CACHE=0 turns it off (src/config.ts; the bench uses it to measure the
// queries alone).

type Waiter = (answer: CachedAnswer | null) => void;

export default fp(
  async function answerCache(app: FastifyInstance, options: { caches: CacheConfig }) {
    app.decorateRequest('answerKey', null);
    app.decorateRequest('answerFlight', false);
    app.decorateRequest('cachedAnswer', null);
    app.decorateRequest('answerRecords', null);
    app.decorateRequest('answerRecordsVersion', null);
    const store = options.caches.answers ? new AnswerStore(options.caches.answerBytes) : null;
    app.decorate('answers', store);
    if (!store) return;
    const flights = new Flights();
    const lookupOf = lookups(store, flights, new ProductChanges(options.caches.brokenAnswerReuse));
    app.addHook('onRoute', (route) => {
      const kind = route.config?.answerCache;
      if (kind !== 'products') {
        if (kind) addRouteHook(route, 'preHandler', lookupOf(kind));
        return;
      }
      // A products list that reads stock is kept by every product write (versioned-key.ts).
      const byRecords = lookupOf('products');
      const byStock = lookupOf('productsByStock');
      addRouteHook(route, 'preHandler', function (request, reply, done) {
        const lookup = readsStock(request.query as Record<string, unknown>) ? byStock : byRecords;
        return lookup.call(this, request, reply, done);
      });
    });

    // App-wide, so that it runs before the onSend of http-caching.ts (which depends on this
    // plugin): the 200 answer is stored before an ETag match turns it into a 304.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.answerKey !== null && reply.statusCode === 200 && typeof payload === 'string') {
        const answer = storeAnswer(store, request, reply, payload);
        flights.land(request, answer);
        return done(null, answer.payload);
      }
      flights.land(request, null);
      done(null, payload);
    });
    // Whatever became of the request (an error before onSend, a closed connection), its
    // waiters are never left waiting.
    app.addHook('onResponse', (request, _reply, done) => {
      flights.land(request, null);
      done();
    });
  },
  { name: 'answer-cache', dependencies: ['project-scope', 'cdn-tags'] },
);

function send(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer): void {
  request.cachedAnswer = answer;
  request.cacheTags = answer.cacheTags;
  // A Buffer is sent as is, past the route's serialiser; kept as bytes, a large answer is
  // not encoded to UTF-8 again for every request.
  reply.type('application/json; charset=utf-8').header('etag', answer.etag).send(answer.payload);
}

/** The single flights: keys being computed (with the records' version, for a kind versioned by them), with the requests waiting. */
class Flights {
  private readonly flights = new Map<string, Waiter[]>();

  private static keyOf(request: FastifyRequest): string {
    return request.answerRecordsVersion === null
      ? request.answerKey!
      : `${request.answerKey}\u0000${request.answerRecordsVersion}`;
  }

  /** The request's flight ended with this answer (null: none to share): its waiters go on. */
  land(request: FastifyRequest, answer: CachedAnswer | null): void {
    if (!request.answerFlight || request.answerKey === null) return;
    request.answerFlight = false;
    const flight = Flights.keyOf(request);
    const waiters = this.flights.get(flight);
    this.flights.delete(flight);
    if (waiters) for (const w of waiters) w(answer);
  }

  /** Computes the answer, or waits for the request computing it. */
  miss(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const flight = Flights.keyOf(request);
    const waiting = this.flights.get(flight);
    if (waiting === undefined) {
      this.flights.set(flight, []);
      request.answerFlight = true;
      return done();
    }
    waiting.push((answer) => (answer ? send(request, reply, answer) : done()));
  }
}

/**
 * The lookup of each kind: a preHandler hook, after validation (a bad query is a 400, never a
 * stored answer) and the key budget of rate-limit.ts, the last step before the handler. One
 * hook per kind, made once: onRoute runs again for the HEAD route of a GET.
 */
function lookups(
  store: AnswerStore,
  flights: Flights,
  productChanges: ProductChanges,
): (kind: CacheKind) => preHandlerHookHandler {
  const made = new Map<CacheKind, preHandlerHookHandler>();
  return (kind) => {
    let lookup = made.get(kind);
    if (lookup) return lookup;
    const column = RECORD_VERSIONED[kind];
    lookup = (request, reply, done) => {
      const key = versionedKey(request.project, kind, request.url);
      request.answerKey = key;
      const hit = store.get(key);
      if (column === undefined)
        return hit !== undefined ? send(request, reply, hit) : flights.miss(request, reply, done);
      const version = request.project[column];
      request.answerRecordsVersion = version;
      productChanges.watch(request.project);
      const records = hit?.records;
      // Known right at this version or a later one (a request that read an older state
      // may be sent a newer one: never older than what it must see).
      if (records && records.version >= version) return send(request, reply, hit);
      if (!records) return flights.miss(request, reply, done);
      productChanges.unchangedSince(request.reads.point, request.project, records.version, records.ids).then(
        (unchanged) => {
          if (!unchanged) return flights.miss(request, reply, done);
          records.version = Math.max(records.version, version);
          send(request, reply, hit);
        },
        // The change log could not be read: computed again, as after any change.
        () => flights.miss(request, reply, done),
      );
    };
    made.set(kind, lookup);
    return lookup;
  };
}

/** A computed 200 answer, as bytes with its ETag, kept unless it could never be judged or a later one is known. */
function storeAnswer(store: AnswerStore, request: FastifyRequest, reply: FastifyReply, payload: string): CachedAnswer {
  const bytes = Buffer.from(payload);
  const etag = etagOf(bytes);
  reply.header('etag', etag);
  const answer: CachedAnswer = {
    key: request.answerKey!,
    payload: bytes,
    etag,
    cacheTags: request.cacheTags,
    encoded: {},
    records: recordsOf(request),
  };
  // Not kept when a route did not say which records it shows (it could never be judged),
  // nor in place of the same answer known right at a later version.
  const kept = store.get(answer.key)?.records;
  if (request.answerRecordsVersion === null || (answer.records && (!kept || kept.version <= answer.records.version)))
    store.set(answer);
  request.cachedAnswer = answer;
  return answer;
}

/** What a miss of a kind versioned record by record showed, as its route declared it. */
function recordsOf(request: FastifyRequest): CachedAnswer['records'] {
  const version = request.answerRecordsVersion;
  const ids = request.answerRecords;
  return version === null || ids === null ? null : { ids, version };
}
