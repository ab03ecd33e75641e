import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  UnknownRow,
} from 'kysely';
import { bumpDataVersion } from '../../src/db/data-version.js';
import { readsOver } from '../../src/db/reads.js';
import { ProjectReader } from '../../src/resources/projects/reader.js';
import { saveProject } from '../../src/writes/project.js';
import { writeProject } from '../../src/writes/write-project.js';
import { eachBackend } from '../support/each-backend.js';
import { twoStorages } from '../support/shared-storage.js';

// src/resources/projects/reader.ts shares one read of the projects table among the requests
// of an event-loop turn. Sharing must never hand a request a row read before it arrived:
// a write acknowledged (by another process) before a request is seen by that request.

/** Counts the reader's queries and holds each answer back for `delayMs`, as a slow link would. */
function slowLink(delayMs: number) {
  const seen = { queries: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args: PluginTransformQueryArgs) => {
      seen.queries++;
      return args.node;
    },
    transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => {
      await new Promise((r) => setTimeout(r, delayMs));
      return args.result;
    },
  };
  return { plugin, seen };
}

eachBackend('project rows are read once per turn, never staler than the request', (backend) => {
  let storages: Awaited<ReturnType<typeof twoStorages>>;
  before(async () => {
    storages = await twoStorages(backend);
    for (const project of [
      { id: 'shop', name: 'Shop', currency: 'EUR' },
      { id: 'other', name: 'Other', currency: 'USD' },
    ])
      await writeProject(storages.a, project.id, (ctx) => saveProject(ctx, project));
  });
  after(() => storages.close());

  test('requests of one turn share one query, each gets its own project', async () => {
    const link = slowLink(0);
    const reader = new ProjectReader(readsOver(storages.b.db.withPlugin(link.plugin)));
    const asked = ['shop', 'other', 'shop', 'missing', 'shop'];
    const rows = await Promise.all(asked.map((id) => reader.read(id)));
    assert.deepEqual(
      rows.map((r) => r?.id),
      ['shop', 'other', 'shop', undefined, 'shop'],
    );
    assert.equal(link.seen.queries, 1);
    assert.equal(await reader.read('not a valid id!'), undefined);
    assert.equal(link.seen.queries, 1, 'an id that cannot exist is answered without a query');
  });

  test('a request arriving during a read waits for a new one and sees the write before it', async () => {
    const link = slowLink(150);
    const reader = new ProjectReader(readsOver(storages.b.db.withPlugin(link.plugin)));
    const version = async () => (await reader.read('shop'))!.data_version;
    const start = await version();

    const early = version(); // its read starts at the end of this turn, then is held back
    await new Promise((r) => setTimeout(r, 30)); // that read has run; its answer is on the way
    await bumpDataVersion(storages.a.db, 'shop'); // another process writes and acknowledges
    const late = version(); // arrives after the acknowledgement, while the early read is out
    assert.equal(await early, start, 'the early read began before the write');
    assert.equal(await late, start + 1, 'the late request must not be given the early read');
  });

  test('a failed read fails its requests, and the next ones read again', async () => {
    let fail = true;
    const flaky: KyselyPlugin = {
      transformQuery: (args) => {
        if (fail) throw new Error('connection lost');
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const reader = new ProjectReader(readsOver(storages.b.db.withPlugin(flaky)));
    await assert.rejects(Promise.all([reader.read('shop'), reader.read('other')]), /connection lost/);
    fail = false;
    assert.equal((await reader.read('other'))?.currency, 'USD');
  });
});
