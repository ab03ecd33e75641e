import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MatchIndexes } from '../../src/resources/products/search/match-index-cache.js';
import { eachBackend } from '../support/each-backend.js';
import { testApp } from '../support/app.js';
import { call } from '../support/request.js';
import { importCatalog, randomCatalog } from './search/catalog.js';

// The match indexes' life outside a request (src/resources/products/search/match-index-cache.ts):
// serve's warm-up builds the largest projects' indexes before their first search, and a build
// that fails is logged and not tried again by every request that follows.

const P = 'search';

eachBackend('the match index before and beside requests', (backend) => {
  test('warm-up builds the project index, so its first search is answered from memory', async (t) => {
    const { app, storage } = await testApp(t, backend, { caches: { answers: false, counts: false } });
    await importCatalog(storage, randomCatalog(7, 40));
    await app.matchIndexes.warm(storage.reads);
    assert.equal(app.matchIndexes.stats.built, 1);
    const r = await call(app, 'GET', `/v2/projects/${P}/products/?q=linen&facets=price`);
    assert.equal(r.status, 200);
    assert.equal(app.matchIndexes.stats.answered, 1);
    assert.equal(app.matchIndexes.stats.built, 1);
  });

  test('a failed build is logged once and the project stays on the SQL path meanwhile', async (t) => {
    const { storage } = await testApp(t, backend);
    await importCatalog(storage, randomCatalog(8, 10));
    const errors: { fields: object; message: string }[] = [];
    const indexes = new MatchIndexes(1 << 20, { error: (fields, message) => errors.push({ fields, message }) });
    const project = await storage.db.selectFrom('projects').selectAll().where('id', '=', P).executeTakeFirstOrThrow();
    // A database that fails every statement: the build cannot read.
    const broken = {
      ...storage.reads,
      general: storage.db.withPlugin({
        transformQuery: () => {
          throw new Error('the disk is gone');
        },
        transformResult: async (args) => args.result,
      }),
    };
    for (let i = 0; i < 3; i++) assert.equal(await indexes.ready(broken, project), undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await indexes.ready(broken, project), undefined);
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0].message, /search index build failed/);
    assert.equal((errors[0].fields as { project: string }).project, P);
  });
});
