// Bundles the operator console (console/, served at GET /console/ by src/client/console-route.ts)
// into dist/console: index.html plus one script and one stylesheet whose names carry a hash of
// their content, so that the server can let browsers keep them for a year. Preact and the
// client package are bundled in; nothing is fetched from another origin.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'console');
const out = join(root, 'dist', 'console');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

const result = await build({
  entryPoints: [join(source, 'src', 'main.tsx')],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: join(source, 'tsconfig.json'),
  logLevel: 'warning',
});

/** Writes assets/<name>-<hash>.<ext> and answers its path under /console/. */
function asset(name, ext, bytes) {
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 10);
  const file = `${name}-${hash}.${ext}`;
  writeFileSync(join(out, 'assets', file), bytes);
  return { url: `/console/assets/${file}`, bytes: bytes.length, gzip: gzipSync(bytes).length };
}

const script = asset('console', 'js', result.outputFiles[0].contents);
const style = asset('console', 'css', readFileSync(join(source, 'console.css')));
const icon = asset('icon', 'svg', readFileSync(join(source, 'icon.svg')));
const html = readFileSync(join(source, 'index.html'), 'utf8')
  .replace('%ICON%', icon.url)
  .replace('%SCRIPT%', script.url)
  .replace('%STYLE%', style.url);
writeFileSync(join(out, 'index.html'), html);
console.log(
  `console: dist/console, script ${script.bytes} bytes (${script.gzip} gzip), stylesheet ${style.bytes} bytes (${style.gzip} gzip)`,
);
