import type { JSX } from 'preact';
import { useEffect } from 'preact/hooks';
import { NeedsScope } from './parts/action.js';
import { Icon } from './parts/icons.js';
import { Link } from './parts/link.js';
import { type Screen as NavScreen, SCREENS, screenOf } from './nav.js';
import { href, place } from './router.js';
import { can, session, signOut } from './session.js';
import { SignIn } from './screens/sign-in.js';

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
          <Screen screen={screen} path={path} />
        )}
      </main>
    </div>
  );
}

/** The screen of the path (nav.ts), or the record page under it (`/orders/12`). */
function Screen({ screen, path }: { screen: NavScreen; path: string }): JSX.Element {
  const id = /^\/[a-z]+\/(\d+)$/.exec(path);
  if (id && screen.detail) return <screen.detail id={Number(id[1])} />;
  return <screen.view />;
}
