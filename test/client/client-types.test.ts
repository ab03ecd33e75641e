import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The client's types are generated from the server's OpenAPI document (scripts/client-types.js)
// and committed, so that the package builds alone. A schema changed without `npm run build`
// and a commit of packages/client/src/openapi.generated.ts fails here.

test('packages/client/src/openapi.generated.ts matches the server schemas', async () => {
  const script = fileURLToPath(new URL('../../../scripts/client-types.js', import.meta.url));
  const result = await promisify(execFile)(process.execPath, [script, '--check']).then(
    () => 'fresh',
    (error: { stderr: string }) => error.stderr,
  );
  assert.equal(result, 'fresh');
});
