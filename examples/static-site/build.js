#!/usr/bin/env node
// @ts-check
// A static shop: one HTML page per product and a category index, rendered from the API with
// the Node client. Run from the repository root (see README.md beside this file):
//   node examples/static-site/build.js [out-dir]
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createClient } from 'storefront-api/client';
import { fileCache } from 'storefront-client/file-cache';

/** @typedef {import('storefront-api/client').Product} Product */
/** @typedef {import('storefront-api/client').Category} Category */

const baseUrl = process.env.STOREFRONT_URL ?? 'http://127.0.0.1:3000';
const projectId = process.env.STOREFRONT_PROJECT ?? 'demo';
const outDir = resolve(process.argv[2] ?? 'examples/static-site/site');

// With STOREFRONT_CACHE_DIR set, answers are kept there and the next build only revalidates
// them (If-None-Match): when nothing changed, every request is a bodiless 304.
const cacheDir = process.env.STOREFRONT_CACHE_DIR;

// No key: a static site shows what the shop shows, so hidden products stay out.
const client = createClient({ baseUrl, projectId, cache: cacheDir ? fileCache(cacheDir) : undefined });

const categories = await client.categories.list();
/** @type {Product[]} */
const products = [];
for await (const product of client.products.all({ order: 'name_asc' })) products.push(product);

await mkdir(join(outDir, 'products'), { recursive: true });
for (const product of products) {
  await writeFile(join(outDir, 'products', `${product.handle}.html`), productPage(product, categories));
}
await writeFile(join(outDir, 'index.html'), indexPage(categories, products));
console.log(`${products.length} product pages and index.html written to ${outDir}`);

/** @param {Product} product @param {Category[]} tree */
function productPage(product, tree) {
  const names = flatten(tree)
    .filter((c) => product.category_ids.includes(c.id))
    .map((c) => c.name);
  const image = product.images[0];
  return page(
    product.name,
    `
    <p><a href="../index.html">All categories</a>${names.length ? ` · ${names.map(escape).join(', ')}` : ''}</p>
    <h1>${escape(product.name)}</h1>
    ${image ? `<img src="${escape(image.url)}" alt="${escape(image.alt)}">` : ''}
    <p class="price">${price(product.price, product.currency)}</p>
    <p>${product.in_stock ? 'In stock' : 'Out of stock'}</p>
    <p>${escape(product.description)}</p>`,
  );
}

/** @param {Category[]} tree @param {Product[]} all */
function indexPage(tree, all) {
  /** @param {Category} category @returns {string} */
  const section = (category) => {
    const own = all.filter((p) => p.category_ids.includes(category.id));
    return `<li>${escape(category.name)}
      ${own.length ? `<ul class="products">${own.map(link).join('')}</ul>` : ''}
      ${category.subcategories.length ? `<ul>${category.subcategories.map(section).join('')}</ul>` : ''}</li>`;
  };
  const loose = all.filter((p) => p.category_ids.length === 0);
  return page(
    'Shop',
    `
    <h1>Shop</h1>
    <ul>${tree.map(section).join('')}</ul>
    ${loose.length ? `<h2>Other products</h2><ul class="products">${loose.map(link).join('')}</ul>` : ''}`,
  );
}

/** @param {Product} product */
function link(product) {
  return `<li><a href="products/${encodeURIComponent(product.handle)}.html">${escape(product.name)}</a> ${price(product.price, product.currency)}</li>`;
}

/** @param {Category[]} tree @returns {Category[]} */
function flatten(tree) {
  return tree.flatMap((c) => [c, ...flatten(c.subcategories)]);
}

/** Prices come in the currency's smallest unit: 4900 USD cents is $49.00, 4900 JPY is ¥4,900. */
function price(/** @type {number} */ amount, /** @type {string} */ currency) {
  const format = new Intl.NumberFormat('en', { style: 'currency', currency });
  return escape(format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2)));
}

function page(/** @type {string} */ title, /** @type {string} */ body) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}img{max-width:100%}.price{font-size:1.4rem}</style>
</head><body>${body}
</body></html>
`;
}

function escape(/** @type {string} */ text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
