// The queries of a run, from a storefront's and a back office's everyday traffic.

export interface Fixtures {
  project: string;
  key: string;
  handle: string;
  categoryId: number;
  ids: number[];
  search: string;
  etag: string;
}

export interface Query {
  name: string;
  path: string;
  headers?: Record<string, string>;
  expect: number;
  /** SQL condition (on products, or orders) whose count is the exact total the answer must carry */
  total?: { table: 'products' | 'orders'; where: string };
}

export function queries(f: Fixtures): Query[] {
  const auth = { authorization: `Bearer ${f.key}` };
  const visible = 'show_in_store = 1';
  return [
    { name: 'product by handle', path: `/products/${f.handle}`, expect: 200 },
    { name: 'list page 1', path: '/products/', expect: 200, total: { table: 'products', where: visible } },
    { name: 'list page 500', path: '/products/?page=500', expect: 200, total: { table: 'products', where: visible } },
    {
      name: 'category',
      path: `/products/?category=${f.categoryId}`,
      expect: 200,
      total: {
        table: 'products',
        where: `${visible} and id in (select product_id from product_categories where project_id = '${f.project}' and category_id = ${f.categoryId})`,
      },
    },
    {
      name: 'order=price_asc,name_asc',
      path: '/products/?order=price_asc,name_asc',
      expect: 200,
      total: { table: 'products', where: visible },
    },
    {
      name: `search "${f.search}"`,
      path: `/products/?search=${f.search}`,
      expect: 200,
      total: { table: 'products', where: `${visible} and search_text like '%${f.search}%'` },
    },
    {
      name: 'ids (50)',
      path: `/products/?ids=${f.ids.join(',')}`,
      expect: 200,
      total: { table: 'products', where: `${visible} and id in (${f.ids.join(',')})` },
    },
    {
      name: 'fetch_hidden=true',
      path: '/products/?fetch_hidden=true',
      headers: auth,
      expect: 200,
      total: { table: 'products', where: '1 = 1' },
    },
    {
      name: 'orders paid+shipped',
      path: '/orders/?payment_status=paid&fulfillment_status=shipped',
      headers: auth,
      expect: 200,
      total: { table: 'orders', where: `payment_status = 'paid' and fulfillment_status = 'shipped'` },
    },
    { name: 'revalidate (304)', path: '/products/', headers: { 'if-none-match': f.etag }, expect: 304 },
  ];
}
