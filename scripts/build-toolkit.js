// Bundles packages/client/src/browser.ts into dist/toolkit.js, the script served at GET /toolkit.js:
// the same source as the Node client, minified for browsers back to ES2019.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist', 'toolkit.js');
mkdirSync(dirname(outfile), { recursive: true });

const result = await build({
  entryPoints: [join(root, 'packages', 'client', 'src', 'browser.ts')],
  outfile,
  bundle: true,
  // A classic script (not a module), so that document.currentScript finds the tag and
  // nothing leaks into the page's globals except window.storefront.
  format: 'iife',
  platform: 'browser',
  target: 'es2019',
  minify: true,
  legalComments: 'none',
  banner: { js: '/* Storefront API toolkit: window.storefront.api(path) */' },
  metafile: true,
  logLevel: 'warning',
});

const bytes = Object.values(result.metafile.outputs)[0].bytes;
console.log(`toolkit: dist/toolkit.js, ${bytes} bytes`);
