import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { field, submitted } from '../format.js';
import { href, place } from '../router.js';
import { session } from '../session.js';
import { Link } from './link.js';

// Saved views: named filters of a list screen, kept in this browser's localStorage (filters,
// never a key), per project and screen. A view is the address's query without its page, so
// opening one starts at its first page.

interface View {
  name: string;
  query: string;
}

function storeKey(screen: string): string {
  return `storefront-console-views:${session.value?.projectId ?? ''}:${screen}`;
}

function load(screen: string): View[] {
  try {
    const views: unknown = JSON.parse(localStorage.getItem(storeKey(screen)) ?? '[]');
    return Array.isArray(views) ? (views as View[]) : [];
  } catch {
    return [];
  }
}

export function SavedViews({ screen }: { screen: '/orders' | '/products' }): JSX.Element {
  const [views, setViews] = useState<View[]>(() => load(screen));
  const keep = (next: View[]) => {
    localStorage.setItem(storeKey(screen), JSON.stringify(next));
    setViews(next);
  };
  const save = (event: SubmitEvent) => {
    const { form, element } = submitted(event);
    const name = field(form, 'view').trim();
    const query = new URLSearchParams(place.value.query);
    query.delete('page');
    // The same name again replaces that view.
    keep([...views.filter((v) => v.name !== name), { name, query: query.toString() }]);
    element.reset();
  };
  return (
    <section class="views" aria-label="Saved views">
      {views.length > 0 && (
        <ul class="view-list">
          {views.map((v) => (
            <li key={v.name}>
              <Link to={href(screen, new URLSearchParams(v.query))}>{v.name}</Link>
              <button
                type="button"
                class="quiet"
                aria-label={`Forget the view ${v.name}`}
                onClick={() => keep(views.filter((w) => w !== v))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="view-save" onSubmit={save}>
        <label>
          <span class="sr-only">Name of this view</span>
          <input name="view" required maxLength={60} placeholder="name this view" />
        </label>
        <button type="submit">Save this view</button>
      </form>
    </section>
  );
}
