import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { liveServer } from '../support/live-server.js';

// The client as a user gets it: packages/client packed by npm, installed ALONE into an empty
// folder (no server, no other package), type-checked and used from a script against a live
// server.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

const USE = `
import { ApiError, createClient, memoryCache } from 'storefront-client';
declare const process: { argv: string[] }; // no @types/node here: the client needs none
const client = createClient({ baseUrl: process.argv[2], projectId: 'shop', cache: memoryCache() });
const plans = await client.plans.list();
const names: string[] = [];
for await (const product of client.products.all({ order: 'name_asc' })) names.push(product.name);
const mirror = new Map();
const synced = await client.sync(mirror, { types: ['product', 'category'] });
const again = await client.api<{ data: unknown[] }>('/plans/', { raw: true });
let missing = 0;
try {
  await client.products.get('nowhere');
} catch (error) {
  if (error instanceof ApiError) missing = error.status;
}
console.log(JSON.stringify({ plans: plans.data.length, names, synced: [synced.added.length, mirror.size], revalidated: again.status, fromCache: again.fromCache, missing }));
`;

test('npm pack, npm install into an empty folder, type-check and run a script', { timeout: 120_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'client-alone-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const { stdout: packed } = await run(
    'npm',
    ['pack', '--workspace', 'packages/client', '--pack-destination', dir, '--json'],
    {
      cwd: root,
    },
  );
  const [{ filename }] = JSON.parse(packed) as { filename: string }[];
  const tarball = join(dir, filename);
  const size = (await stat(tarball)).size;
  assert.ok(size < 50 * 1024, `${size} bytes packed`);

  const app = join(dir, 'app');
  await run('mkdir', ['-p', app]);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'a-shop', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: app });
  assert.deepEqual(
    await readdir(join(app, 'node_modules')),
    ['.package-lock.json', 'storefront-client'],
    'no dependency came along',
  );

  await writeFile(join(app, 'use.ts'), USE);
  // The published types alone must type the script: nothing of the server is there to lean on.
  await run(
    process.execPath,
    [tsc, '--strict', '--module', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', '--outDir', '.', 'use.ts'],
    { cwd: app },
  );
  const { baseUrl } = await liveServer(t, 'sqlite');
  const { stdout } = await run(process.execPath, ['use.js', baseUrl], { cwd: app });
  assert.deepEqual(JSON.parse(stdout), {
    plans: 2,
    names: ['apple', 'Apple', 'Banana', 'banana', 'Knife', 'Éclair'],
    synced: [12, 12],
    revalidated: 200, // the cache revalidated it (a 304 to its own If-None-Match): 200, fromCache
    fromCache: true,
    missing: 404,
  });
});
