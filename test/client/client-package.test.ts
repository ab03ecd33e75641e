import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// The client package (packages/client) must run anywhere fetch exists: no package, no node:
// module, no server code at run time. The types it is generated with vanish.

const clientDir = fileURLToPath(new URL('../../../packages/client/dist/', import.meta.url));

/** Every file the compiled client index loads, following its static and dynamic imports. */
function importGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const [, spec] of code.matchAll(
    /(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm,
  )) {
    if (spec === undefined) continue;
    assert.ok(
      spec.startsWith('./'),
      `${relative(clientDir, file)} imports ${spec}: the client may only import its own files`,
    );
    importGraph(join(dirname(file), spec), seen);
  }
  return seen;
}

test('the compiled client loads only its own files', () => {
  const files = [...importGraph(join(clientDir, 'index.js'))].map((f) => relative(clientDir, f)).sort();
  assert.ok(files.includes('api.js') && files.includes('resources.js'), `the graph was followed: ${files.join(', ')}`);
  assert.ok(!files.includes('file-cache.js'), 'the file cache (node:fs) is a separate entry');
});

test('package.json exports the client as storefront-api/client, with its types', async () => {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
  assert.deepEqual(pkg.exports['./client'], {
    types: './dist/src/client/index.d.ts',
    default: './dist/src/client/index.js',
  });
  const client = await import('storefront-api/client');
  assert.equal(typeof client.createClient, 'function');
  assert.equal(typeof client.ApiError, 'function');
});
