#!/usr/bin/env node
// The module graph of src/: a module is a folder (src/resources/<name> each its own; the root's
// files split into `core`, what everything may import, and `app`, the entry points). Prints the
// modules, their import dependencies and the ones pointing back up the layers below.
// Usage: node scripts/module-graph.js [--edges]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Bottom to top: a module may import its own layer and the ones before it.
const LAYERS = [
  ['core'],
  ['db', 'db/migrations', 'http'],
  ['backups', 'cache', 'changes', 'keys', 'writes', 'webhooks'],
  ['resources', 'resources/*'],
  ['import', 'export', 'generate', 'imports', 'demo'],
  ['plugins', 'openapi', 'client'],
  ['app', 'cli'],
];
// Every config-*.ts file is core too: config.ts is split by subject, not by layer.
const CORE = new Set(['config.ts', 'errors.ts', 'version.ts']);
const isCore = (name) => CORE.has(name) || /^config-[a-z-]+\.ts$/.test(name);

const root = resolve(process.argv[1], '../../src');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

function moduleOf(file) {
  const dir = relative(root, dirname(file));
  if (dir === '') return isCore(relative(root, file)) ? 'core' : 'app';
  return dir.replaceAll('\\', '/');
}

function layerOf(module) {
  const index = LAYERS.findIndex((layer) =>
    layer.some((m) => m === module || (m.endsWith('/*') && module.startsWith(m.slice(0, -1)))),
  );
  if (index < 0) throw new Error(`module ${module} has no layer: add it to LAYERS`);
  return index;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g;
const edges = new Map();
const modules = new Set();
for (const file of files(root)) {
  const from = moduleOf(file);
  modules.add(from);
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    if (!target.startsWith(root)) continue;
    const to = moduleOf(target);
    if (to !== from) edges.set(`${from} -> ${to}`, [from, to]);
  }
}

const upward = [...edges.values()].filter(([from, to]) => layerOf(to) > layerOf(from));
console.log(`modules ${modules.size}, dependencies ${edges.size}, upward ${upward.length}`);
for (const [from, to] of upward) console.log(`  up: ${from} -> ${to}`);
if (process.argv.includes('--edges')) for (const key of [...edges.keys()].sort()) console.log(`  ${key}`);
