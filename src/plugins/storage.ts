import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CountCache, type ListPage } from '../cache/count-cache.js';
import { RecordCache } from '../cache/record-cache.js';
import type { CacheConfig } from '../config.js';
import type { Storage } from '../db/connect.js';
import { MatchIndexes } from '../resources/products/search/match-index-cache.js';

// The database every other plugin and route reads (`app.storage`), the exact list totals
// kept over it (`app.counts`, src/cache/count-cache.ts) and the presented products
// (`app.records`, src/cache/record-cache.ts) and shopper search's match indexes (`app.matchIndexes`,
// src/resources/products/search/match-index-cache.ts): one of each per app, since tests run many apps
// on many databases in one process.

export default fp(
  async function storage(app: FastifyInstance, options: { storage: Storage; caches: CacheConfig }) {
    app.decorate('storage', options.storage);
    app.decorate('counts', new CountCache(options.caches.counts, options.caches.countEntries));
    app.decorate('pages', new CountCache<ListPage>(options.caches.counts, options.caches.countEntries));
    const { records, recordBytes, brokenRecordVersions } = options.caches;
    app.decorate('records', new RecordCache(records, recordBytes, brokenRecordVersions));
    const { searchIndexBytes, searchThreads, searchThreadFrom } = options.caches;
    const indexes = new MatchIndexes(searchIndexBytes, app.log, { threads: searchThreads, from: searchThreadFrom });
    app.decorate('matchIndexes', indexes);
    app.addHook('onClose', async () => indexes.close());
  },
  { name: 'storage' },
);
