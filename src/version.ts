import { readFileSync } from 'node:fs';

// The package's version, read once from package.json (dist/src/version.js -> the root): the
// OpenAPI document and the service index at GET / both show it.
export const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
