import type { JSX } from 'preact';
import { useEffect } from 'preact/hooks';
import { NeedsScope } from './parts/action.js';
import { Icon } from './parts/icons.js';
import { Link } from './parts/link.js';
import { SCREENS, screenOf } from './nav.js';
import { href, place } from './router.js';
import { can, session, signOut } from './session.js';
import { Categories } from './screens/categories.js';
import { Home } from './screens/home.js';
import { Imports } from './screens/imports.js';
import { OrderDetail } from './screens/order-detail.js';
import { Orders } from './screens/orders.js';
import { Plans } from './screens/plans.js';
import { Products } from './screens/products.js';
import { Keys } from './screens/keys.js';
import { SignIn } from './screens/sign-in.js';
import { Users } from './screens/users.js';
import { Webhooks } from './screens/webhooks.js';

// The shell: the menu, who is signed in, and the screen of the address.

export function App(): JSX.Element {
  const signedIn = session.value;
  const { path } = place.value;
  const screen = screenOf(path);
  useEffect(() => {
    document.title = `${screen?.title ?? 'Not found'} · Storefront console`;
    // After a change of screen, the keyboard starts at its heading.
    document.getElementById('main-heading')?.focus({ preventScroll: true });
  }, [path, Boolean(signedIn)]);
  if (!signedIn) return <SignIn />;
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Storefront</span>
        <span class="who" title={`key ${signedIn.current.id}: ${signedIn.current.scopes.join(', ')}`}>
          {signedIn.projectId} · {signedIn.current.label || `key ${signedIn.current.id}`}
        </span>
        <button type="button" class="quiet" onClick={signOut}>
          <Icon name="out" /> Sign out
        </button>
      </header>
      <nav class="menu" aria-label="Screens">
        <ul>
          {SCREENS.map((s) => (
            <li key={s.path}>
              <Link to={href(s.path)} aria-current={screen === s ? 'page' : undefined}>
                <Icon name={s.icon} /> {s.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" class="main">
        {screen === undefined ? (
          <h1 id="main-heading" tabIndex={-1}>
            Nothing here
          </h1>
        ) : screen.scope && !can(screen.scope) ? (
          <>
            <h1 id="main-heading" tabIndex={-1}>
              {screen.title}
            </h1>
            <NeedsScope scope={screen.scope} />
          </>
        ) : (
          <Screen path={path} />
        )}
      </main>
    </div>
  );
}

function Screen({ path }: { path: string }): JSX.Element {
  const order = /^\/orders\/(\d+)$/.exec(path);
  if (order) return <OrderDetail id={Number(order[1])} />;
  switch (screenOf(path)?.path) {
    case '/orders':
      return <Orders />;
    case '/products':
      return <Products />;
    case '/categories':
      return <Categories />;
    case '/plans':
      return <Plans />;
    case '/users':
      return <Users />;
    case '/keys':
      return <Keys />;
    case '/webhooks':
      return <Webhooks />;
    case '/imports':
      return <Imports />;
    default:
      return <Home />;
  }
}
