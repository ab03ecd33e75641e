#!/usr/bin/env node
// @ts-check
// A static shop rendered from the API, incrementally: a page per product, a page per category,
// an index and a sitemap. The first run reads the whole change feed and renders everything;
// each later run reads only what changed since (its cursor and records are kept in the state
// file beside the site) and rewrites only the pages those changes touch. See README.md.
//   node examples/static-site/build.js [out-dir] [--full]
import { mkdirSync, writeFileSync } from 'node:fs';
import { access, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createClient, recordsOf } from 'storefront-api/client';
import { fileCache } from 'storefront-client/file-cache';
import { syncFile } from 'storefront-client/sync-file';
import {
  Catalog,
  categoryPage,
  categoryPath,
  indexPage,
  productPage,
  productPath,
  searchPage,
  sitemap,
} from './render.js';

/** @typedef {import('storefront-api/client').Product} Product */

const started = performance.now();
const args = process.argv.slice(2);
const full = args.includes('--full');
const outDir = resolve(args.find((a) => !a.startsWith('--')) ?? 'examples/static-site/site');
const stateFile = process.env.STOREFRONT_STATE ?? `${outDir}.state.json`;
const siteUrl = process.env.SITE_URL ?? 'https://shop.example/';
const cacheDir = process.env.STOREFRONT_CACHE_DIR;

// No key: a static site shows what the shop shows, so hidden products come as deletions.
// With STOREFRONT_CACHE_DIR, a poll that finds nothing new is a bodiless 304.
const apiUrl = process.env.STOREFRONT_URL ?? 'http://127.0.0.1:3000';
const projectId = process.env.STOREFRONT_PROJECT ?? 'demo';
const client = createClient({
  baseUrl: apiUrl,
  projectId,
  cache: cacheDir ? fileCache(cacheDir) : undefined,
});

// Without the state file, or the site it describes, everything is rendered again.
if (full || !(await exists(join(outDir, 'index.html')))) await rm(stateFile, { force: true });
const firstRun = !(await exists(stateFile));
const sync = await syncFile(client, stateFile, { types: ['product', 'category'] }).catch((error) => {
  // The API unreachable or refusing: one line that says why, not a stack.
  console.error(`static-site: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
const catalog = new Catalog(recordsOf(sync.mirror, 'product'), recordsOf(sync.mirror, 'category'));
const rebuildAll = firstRun || sync.resynced;

let written = 0;
/** @type {Set<string>} folders made by this run */
const made = new Set();
// Synchronous: a build has nothing else to do meanwhile, and a removal made before a write
// (a page whose handle moved to another product) is certainly done before it.
/** @param {string} path @param {string} text */
const write = (path, text) => {
  const file = join(outDir, path);
  if (!made.has(dirname(file))) {
    made.add(dirname(file));
    mkdirSync(dirname(file), { recursive: true });
  }
  writeFileSync(file, text);
  written++;
};

if (rebuildAll) {
  // From nothing (or after a 410): every page, into folders emptied of earlier builds' pages.
  await Promise.all(['products', 'categories'].map((dir) => rm(join(outDir, dir), { recursive: true, force: true })));
  for (const product of catalog.products) write(productPath(product), productPage(catalog, product));
  for (const category of catalog.categories.values()) write(categoryPath(category), categoryPage(catalog, category));
  write('index.html', indexPage(catalog));
} else {
  await writeChanges();
}
write('sitemap.xml', sitemap(catalog, siteUrl));
write('search.html', searchPage(catalog, apiUrl, projectId));

const seconds = ((performance.now() - started) / 1000).toFixed(2);
const changes = sync.added.length + sync.changed.length + sync.removed.length;
console.log(
  `${rebuildAll ? 'full build' : `${changes} changes`}: ${catalog.products.length} products, ` +
    `${written} pages written to ${outDir} in ${seconds} s`,
);

/** Only the pages the changes touch: the old pages removed first, then the new ones written. */
async function writeChanges() {
  /** @type {Set<number | null>} category pages to redo (null: the index, home of products in no category) */
  const categories = new Set();
  /** @type {Map<number, Product>} product pages to redo */
  const products = new Map();
  /** @type {string[]} pages whose record is gone, or moved to another handle */
  const gone = [];
  /** The category pages listing a product (in no category: the index). @param {Product} product */
  const listing = (product) => (product.category_ids.length ? product.category_ids : [null]);

  const all = [...sync.added, ...sync.changed, ...sync.removed];
  for (const change of all) {
    const previous = 'previous' in change ? change.previous : undefined;
    const record = 'record' in change ? change.record : undefined;
    if (change.type === 'product') {
      if (previous) listing(previous).forEach((c) => categories.add(c));
      if (record) listing(record).forEach((c) => categories.add(c));
      if (record) products.set(record.id, record);
      if (previous && previous.handle !== record?.handle) gone.push(productPath(previous));
    } else if (change.type === 'category') {
      if (previous && previous.handle !== record?.handle) gone.push(categoryPath(previous));
    }
  }
  const changedCategories = new Set(all.filter((c) => c.type === 'category').map((c) => c.id));
  if (changedCategories.size > 0) {
    // A category's name, handle and place show on the index, on every category page (trails,
    // subcategories) and on the pages of the products filed in it.
    for (const product of catalog.products) {
      if (product.category_ids.some((id) => changedCategories.has(id))) products.set(product.id, product);
    }
    for (const id of catalog.categories.keys()) categories.add(id);
    categories.add(null);
  }

  for (const path of gone) await rm(join(outDir, path), { force: true });
  for (const product of products.values()) write(productPath(product), productPage(catalog, product));
  for (const id of categories) {
    const category = id === null ? undefined : catalog.categories.get(id);
    if (id === null) write('index.html', indexPage(catalog));
    else if (category) write(categoryPath(category), categoryPage(catalog, category));
  }
}

/** @param {string} path */
async function exists(path) {
  return access(path).then(
    () => true,
    () => false,
  );
}
