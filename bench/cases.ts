import { FULFILLMENT_STATUSES, PAYMENT_STATUSES } from '../src/resources/orders/record.js';
import { ORDER_CLAUSES } from '../src/resources/products/schemas.js';
import type { Pools } from './pools.js';
import type { Random } from './random.js';

// The cases of a run: a storefront's and a back office's traffic, each request with inputs
// drawn at random (issue 14): a different handle, category, page, id list or term almost every
// time, as real visitors send them, so that the answer cache helps only as much as it would.

export interface Request {
  path: string;
  headers?: Record<string, string>;
  /** SQL condition (on products, or orders) whose count is the exact total the answer must carry */
  total?: { table: 'products' | 'orders'; where: string };
}

export interface Case {
  name: string;
  expect: number;
  draw(r: Random): Request;
}

const PER_PAGE = 20; // the API's default page size
const VISIBLE = 'show_in_store = 1';
/** each clause alone, and every pair of two different keys */
const ORDERS = [
  ...ORDER_CLAUSES,
  ...ORDER_CLAUSES.flatMap((a) =>
    ORDER_CLAUSES.filter((b) => b.split('_')[0] !== a.split('_')[0]).map((b) => `${a},${b}`),
  ),
];

/** A page from 1 to 500, never past the last one. */
function page(r: Random, rows: number): number {
  return r.int(1, Math.max(1, Math.min(500, Math.ceil(rows / PER_PAGE))));
}

export function cases(p: Pools): Case[] {
  const auth = { authorization: `Bearer ${p.key}` };
  const inCategory = (id: number) =>
    `${VISIBLE} and id in (select product_id from product_categories where project_id = '${p.project}' and category_id = ${id})`;
  return [
    { name: 'product by handle', expect: 200, draw: (r) => ({ path: `/products/${r.pick(p.handles)}` }) },
    {
      name: 'list page 1 (same request)',
      expect: 200,
      draw: () => ({ path: '/products/', total: { table: 'products', where: VISIBLE } }),
    },
    {
      name: 'list, page ≤ 500',
      expect: 200,
      draw: (r) => ({ path: `/products/?page=${page(r, p.visible)}`, total: { table: 'products', where: VISIBLE } }),
    },
    {
      name: 'category among all',
      expect: 200,
      draw: (r) => {
        const id = r.pick(p.categoryIds);
        return { path: `/products/?category=${id}`, total: { table: 'products', where: inCategory(id) } };
      },
    },
    {
      name: 'ids (50 random)',
      expect: 200,
      draw: (r) => {
        const ids = Array.from({ length: 50 }, () => r.int(1, p.maxProductId));
        return {
          path: `/products/?perpage=50&ids=${ids.join(',')}`,
          total: { table: 'products', where: `${VISIBLE} and id in (${ids.join(',')})` },
        };
      },
    },
    {
      name: 'search, 3 letters',
      expect: 200,
      draw: (r) => {
        const term = r.pick(p.terms);
        return {
          path: `/products/?search=${term}`,
          total: { table: 'products', where: `${VISIBLE} and search_text like '%${term}%'` },
        };
      },
    },
    {
      name: 'order: a clause or a pair',
      expect: 200,
      draw: (r) => ({
        path: `/products/?order=${r.pick(ORDERS)}&page=${page(r, p.visible)}`,
        total: { table: 'products', where: VISIBLE },
      }),
    },
    {
      name: 'fetch_hidden=true, key',
      expect: 200,
      draw: (r) => ({
        path: `/products/?fetch_hidden=true&page=${page(r, p.handles.length)}`,
        headers: auth,
        total: { table: 'products', where: '1 = 1' },
      }),
    },
    {
      name: 'orders, two filters, key',
      expect: 200,
      draw: (r) => {
        const pay = r.pick(PAYMENT_STATUSES);
        const ful = r.pick(FULFILLMENT_STATUSES);
        return {
          path: `/orders/?payment_status=${pay}&fulfillment_status=${ful}`,
          headers: auth,
          total: { table: 'orders', where: `payment_status = '${pay}' and fulfillment_status = '${ful}'` },
        };
      },
    },
  ];
}

/** The worst searches a visitor can send: one or two letters, deep pages, any order. */
export function heavySearch(p: Pools): Case {
  return {
    name: 'heavy search',
    expect: 200,
    draw: (r) => ({ path: `/products/?search=${r.pick(p.shortTerms)}&order=${r.pick(ORDERS)}&page=${r.int(50, 500)}` }),
  };
}
