// @ts-check
// The pages of the static shop, each a pure function of the mirror (records from the change
// feed): the same records always give the same bytes, so a page re-rendered by an incremental
// build is identical to the one a full build writes.

/** @typedef {import('storefront-api/client').Product} Product */
/** @typedef {import('storefront-api/client').FeedCategory} Category */

/** The catalog as the pages need it, indexed once per build. */
export class Catalog {
  /** @param {Product[]} products @param {Category[]} categories */
  constructor(products, categories) {
    /** @type {Map<number, Category>} */
    this.categories = new Map(categories.map((c) => [c.id, c]));
    /** @type {Map<number | null, Category[]>} children by parent id (null: the roots), by name */
    this.children = groupSorted(categories, (c) => [c.parent_id], byName);
    /** @type {Map<number | null, Product[]>} products by category id (null: in none), by name */
    this.inCategory = groupSorted(products, (p) => (p.category_ids.length ? p.category_ids : [null]), byName);
    this.products = [...products].sort(byHandle);
  }

  /** @param {number} id @returns {Category[]} the category and its parents, root first */
  trail(id) {
    /** @type {Category[]} */
    const out = [];
    for (let c = this.categories.get(id); c && out.length < 100; c = this.categories.get(c.parent_id ?? 0)) {
      out.unshift(c);
    }
    return out;
  }
}

/** @param {Catalog} catalog @param {Product} product */
export function productPage(catalog, product) {
  const categories = product.category_ids
    .map((id) => catalog.categories.get(id))
    .filter((c) => c !== undefined)
    .sort(byName);
  const image = product.images[0];
  return page(
    product.name,
    '../',
    `
    <p><a href="../index.html">Shop</a>${categories.map((c) => ` · ${categoryLink(c, '../')}`).join('')}</p>
    <h1>${escape(product.name)}</h1>
    ${image ? `<img src="${escape(image.url)}" alt="${escape(image.alt)}">` : ''}
    <p class="price">${price(product)}</p>
    <p>${product.in_stock ? 'In stock' : 'Out of stock'}</p>
    <p>${escape(product.description)}</p>`,
  );
}

/** @param {Catalog} catalog @param {Category} category */
export function categoryPage(catalog, category) {
  const trail = catalog.trail(category.id);
  const subcategories = catalog.children.get(category.id) ?? [];
  const products = catalog.inCategory.get(category.id) ?? [];
  return page(
    category.name,
    '../',
    `
    <p><a href="../index.html">Shop</a>${trail
      .slice(0, -1)
      .map((c) => ` › ${categoryLink(c, '../')}`)
      .join('')}</p>
    <h1>${escape(category.name)}</h1>
    ${subcategories.length ? `<ul class="categories">${subcategories.map((c) => `<li>${categoryLink(c, '../')}</li>`).join('')}</ul>` : ''}
    ${products.length ? `<ul class="products">${products.map((p) => productLink(p, '../')).join('')}</ul>` : ''}`,
  );
}

/** The category tree, and the products filed in no category. @param {Catalog} catalog */
export function indexPage(catalog) {
  /** @param {Category} category @returns {string} */
  const branch = (category) => {
    const below = catalog.children.get(category.id) ?? [];
    return `<li>${categoryLink(category, '')}${below.length ? `<ul>${below.map(branch).join('')}</ul>` : ''}</li>`;
  };
  const loose = catalog.inCategory.get(null) ?? [];
  return page(
    'Shop',
    '',
    `
    <h1>Shop</h1>
    <p><a href="search.html">Search</a></p>
    <ul class="categories">${(catalog.children.get(null) ?? []).map(branch).join('')}</ul>
    ${loose.length ? `<h2>Other products</h2><ul class="products">${loose.map((p) => productLink(p, '')).join('')}</ul>` : ''}`,
  );
}

/**
 * The search page: static, asking the API as the shopper types (`q` with typos and prefixes,
 * ranked, and the category, price and stock facets; CONTRACT 17), through the browser toolkit
 * served by the API. A category facet narrows with `categories=` (its subtree too); results
 * link to the static product pages. The category names come from the mirror.
 * @param {Catalog} catalog @param {string} apiUrl @param {string} projectId
 */
export function searchPage(catalog, apiUrl, projectId) {
  const names = Object.fromEntries([...catalog.categories.values()].sort(byHandle).map((c) => [c.id, c.name]));
  const base = apiUrl.replace(/\/*$/, '');
  return page(
    'Search',
    '',
    `
    <p><a href="index.html">Shop</a></p>
    <h1>Search</h1>
    <form id="search"><input name="q" type="search" placeholder="linen shirt" autofocus> <label><input name="in_stock" type="checkbox"> in stock</label></form>
    <p id="facets"></p>
    <ul id="results" class="products"></ul>
    <script src="${escape(base)}/toolkit.js" data-project="${escape(projectId)}"></script>
    <script>
    const names = ${JSON.stringify(names).replace(/</g, '\\u003c')};
    const form = document.getElementById('search');
    let category = '';
    const esc = (t) => String(t).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
    async function run() {
      const query = { q: form.q.value, facets: 'category,in_stock', perpage: 20 };
      if (form.in_stock.checked) query.in_stock = true;
      if (category) query.categories = category;
      const { data, meta } = await storefront.products.list(query);
      document.getElementById('results').innerHTML = data
        .map((p) => '<li><a href="products/' + encodeURIComponent(p.handle) + '.html">' + esc(p.name) + '</a></li>')
        .join('') || '<li>Nothing found.</li>';
      document.getElementById('facets').innerHTML = meta.total + ' found · ' + meta.facets.in_stock.true + ' in stock · ' +
        meta.facets.category.filter((c) => names[c.id])
          .map((c) => '<a href="#" data-id="' + c.id + '">' + esc(names[c.id]) + ' (' + c.count + ')</a>').join(' · ');
    }
    document.getElementById('facets').addEventListener('click', (e) => {
      const id = e.target.dataset && e.target.dataset.id;
      if (!id) return;
      e.preventDefault();
      category = category === id ? '' : id;
      run();
    });
    form.addEventListener('input', () => run());
    form.addEventListener('submit', (e) => { e.preventDefault(); run(); });
    run();
    </script>`,
  );
}

/** Every page, for search engines; a product's `lastmod` is its `updated_at`. @param {Catalog} catalog @param {string} siteUrl */
export function sitemap(catalog, siteUrl) {
  const base = siteUrl.replace(/\/*$/, '/');
  /** @param {string} path @param {number} [time] */
  const url = (path, time) =>
    `<url><loc>${escape(base + path)}</loc>${time ? `<lastmod>${new Date(time * 1000).toISOString()}</lastmod>` : ''}</url>\n`;
  const categories = [...catalog.categories.values()].sort(byHandle);
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${url('index.html')}${categories.map((c) => url(categoryPath(c))).join('')}${catalog.products
    .map((p) => url(productPath(p), p.updated_at))
    .join('')}</urlset>
`;
}

/** @param {Product} product */
export const productPath = (product) => `products/${encodeURIComponent(product.handle)}.html`;
/** @param {Category} category */
export const categoryPath = (category) => `categories/${encodeURIComponent(category.handle)}.html`;

/** @param {Category} category @param {string} up */
function categoryLink(category, up) {
  return `<a href="${up}${categoryPath(category)}">${escape(category.name)}</a>`;
}

/** @param {Product} product @param {string} up */
function productLink(product, up) {
  return `<li><a href="${up}${productPath(product)}">${escape(product.name)}</a> ${price(product)}</li>`;
}

/** Prices come in the currency's smallest unit: 4900 USD cents is $49.00, 4900 JPY is ¥4,900. @param {Product} product */
function price(product) {
  let currency = currencies.get(product.currency);
  if (!currency) {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency: product.currency });
    currency = { format, unit: 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2) };
    currencies.set(product.currency, currency);
  }
  return escape(currency.format.format(product.price / currency.unit));
}
/** One formatter per currency: making one costs far more than using it. @type {Map<string, { format: Intl.NumberFormat, unit: number }>} */
const currencies = new Map();

/** @param {string} title @param {string} up @param {string} body */
function page(title, up, body) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}img{max-width:100%}.price{font-size:1.4rem}</style>
<link rel="sitemap" href="${up}sitemap.xml">
</head><body>${body}
</body></html>
`;
}

/** @param {string} text */
function escape(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Case-insensitive by name, then by id: a stable order, whatever order the records came in. @param {{ name: string, id: number }} a @param {{ name: string, id: number }} b */
function byName(a, b) {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
}

/** @param {{ handle: string, id: number }} a @param {{ handle: string, id: number }} b */
function byHandle(a, b) {
  return a.handle < b.handle ? -1 : a.handle > b.handle ? 1 : a.id - b.id;
}

/**
 * @template T, K
 * @param {T[]} items @param {(item: T) => K[]} keysOf @param {(a: T, b: T) => number} order
 * @returns {Map<K, T[]>}
 */
function groupSorted(items, keysOf, order) {
  /** @type {Map<K, T[]>} */
  const groups = new Map();
  for (const item of items)
    for (const key of keysOf(item)) {
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
  for (const group of groups.values()) group.sort(order);
  return groups;
}
