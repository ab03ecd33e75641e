import type { AnswerStore, CachedAnswer } from '../cache/answer-store.js';
import type { CountCache, ListPage } from '../cache/count-cache.js';
import type { RecordCache } from '../cache/record-cache.js';
import type { CacheKind } from '../cache/invalidation.js';
import type { Storage } from '../db/connect.js';
import type { Reads } from '../db/reads.js';
import type { KeyChecker } from '../keys/checker.js';
import type { Scope } from '../keys/scopes.js';
import type { MatchIndexes } from '../resources/products/search/match-index-cache.js';
import type { Project } from '../resources/projects/repository.js';
import type { IdempotencyClaim } from './idempotency.js';
import type { Imports } from './imports.js';
import type { Metrics } from './metrics.js';
import type { Webhooks } from './webhooks.js';

// What the plugins add to Fastify's own types, in one place: the decorations each plugin
// makes, and the route options the pipeline reads. The plugin that sets each is named.

declare module 'fastify' {
  interface FastifyInstance {
    /** the database (storage.ts) */
    storage: Storage;
    /** exact totals per filter and version of what they count (storage.ts, src/cache/count-cache.ts) */
    counts: CountCache;
    /** the ids of products list pages and their totals, by the version of what lists hold (storage.ts) */
    pages: CountCache<ListPage>;
    /** each product's presented JSON, by its own version (storage.ts, src/cache/record-cache.ts) */
    records: RecordCache;
    /** shopper search's per-project match indexes, kept exact from the change log (storage.ts) */
    matchIndexes: MatchIndexes;
    /** the stored answers, or null when STOREFRONT_ANSWER_CACHE is off (answer-cache.ts) */
    answers: AnswerStore | null;
    /** Prometheus counters (metrics.ts) */
    metrics: Metrics;
    /** the key check, answered from memory while the project's keys_version holds (project-scope.ts) */
    keys: KeyChecker;
    /** the webhook address rule, clock and delivery worker (webhooks.ts) */
    webhooks: Webhooks;
    /** the upload limits and the import job runner (imports.ts) */
    imports: Imports;
    /** the methods each route path serves, collected as routes are added (method-not-allowed.ts) */
    servedMethods: ReadonlyMap<string, ReadonlySet<string>>;
  }

  interface FastifyRequest {
    /** the project of a route under /v2/projects/:project_id (project-scope.ts) */
    project: Project;
    /** the id of the API key accepted for this request; rate limits and idempotency use it (project-scope.ts) */
    apiKeyId: number | null;
    /** the admin key of an admin route, as its log names it (admin-scope.ts, src/keys/admin.ts) */
    adminKeyId: string | null;
    /** the scopes of that key; ask with hasScope (src/keys/scopes.ts) (project-scope.ts) */
    apiKeyScopes: ReadonlySet<Scope> | null;
    /** where this request's reads go: a replica that reached the version it needs, or the primary (project-scope.ts, src/db/reads.ts) */
    reads: Reads;
    /** the project's version its row had where this request read it, 0: no such project (project-scope.ts) */
    storefrontVersion: number | null;
    /** set when the answer depends on the caller's key (project-scope.ts; http-caching.ts reads it) */
    isPrivate: boolean;
    /** the Idempotency-Key this POST claimed, until its answer is stored (idempotency.ts) */
    idempotency: IdempotencyClaim | null;
    /** set on a miss of a route whose 200 answer may be stored under this key (answer-cache.ts) */
    answerKey: string | null;
    /** this miss computes the answer that other requests missing the same key wait for (answer-cache.ts) */
    answerFlight: boolean;
    /** the stored answer being sent, a hit or the miss just stored (answer-cache.ts; http-caching.ts keeps its encodings) */
    cachedAnswer: CachedAnswer | null;
    /** the ids of the products a products answer shows, as its route says (answer-cache.ts) */
    answerRecords: readonly number[] | null;
    /** the products_version a products answer is looked up and stored at (answer-cache.ts) */
    answerRecordsVersion: number | null;
    /** what a public answer holds, for Surrogate-Key and Cache-Tag (cdn-tags.ts) */
    cacheTags: readonly string[] | null;
  }

  interface FastifyContextConfig {
    /**
     * `key`: always needs an API key; `fetch_hidden`: needs one when fetch_hidden=true;
     * `fetch_inactive`: needs one when fetch_inactive=true; `asked`: needs one when
     * `askedScopes` finds scopes in the query (project-scope.ts)
     */
    auth?: 'key' | 'fetch_hidden' | 'fetch_inactive' | 'asked';
    /**
     * the scope the key must hold, with `auth` (project-scope.ts; a 403 otherwise); a list with
     * `key`: every one of them; `asked`: every scope it may ask; null: any valid key of the
     * project will do
     */
    scope?: Scope | readonly Scope[] | null;
    /** `auth: 'asked'`: the scopes this request's raw query needs (none: no key needed) */
    askedScopes?: (query: Record<string, unknown>) => Scope[];
    /** the answer holds a secret shown once, so it must never be stored (idempotency.ts refuses the header) */
    answerHoldsSecret?: boolean;
    /**
     * the 200 answer is kept per URL and the versions of the record types this kind of answer
     * shows (src/cache/versioned-key.ts), and served from memory (answer-cache.ts)
     */
    answerCache?: CacheKind;
    /** an export's file: a one-time `download_token` may stand for the key (src/export/download-links.ts) */
    download?: string;
    /**
     * whether the record the path names exists, asked only of a request whose body has no
     * Content-Type, so that an unknown record is a 404 before that 415 (strict-input.ts)
     */
    exists?: (request: FastifyRequest) => Promise<boolean>;
    /** an admin route: needs an admin key, names no project's scope (admin-scope.ts) */
    admin?: boolean;
    /** one of the catch-all routes that answer 405 (method-not-allowed.ts) */
    methodNotAllowed?: boolean;
  }
}
