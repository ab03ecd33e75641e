import type { JSX } from 'preact';
import type { Category } from 'storefront-client';
import { Link } from '../parts/link.js';
import { Problem } from '../parts/problem.js';
import { useLoad } from '../parts/use-load.js';
import { href } from '../router.js';
import { api } from '../session.js';

// The category tree, each level as the API sorts it, with a link to its products.

export function Categories(): JSX.Element {
  const tree = useLoad(() => api().categories.list(), []);
  return (
    <>
      <h1 id="main-heading" tabIndex={-1}>
        Categories
      </h1>
      <Problem error={tree.error} />
      {tree.data &&
        (tree.data.length === 0 ? <p>No categories yet.</p> : <Branch nodes={tree.data} label="Categories" />)}
    </>
  );
}

function Branch({ nodes, label }: { nodes: Category[]; label?: string }): JSX.Element {
  return (
    <ul class="tree" aria-label={label}>
      {nodes.map((c) => (
        <li key={c.id}>
          <Link to={href('/products', { category: String(c.id) })}>{c.name}</Link>{' '}
          <span class="muted">
            {c.handle} · id {c.id}
          </span>
          {c.subcategories.length > 0 && <Branch nodes={c.subcategories} />}
        </li>
      ))}
    </ul>
  );
}
