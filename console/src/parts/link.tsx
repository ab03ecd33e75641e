import type { ComponentChildren, JSX } from 'preact';
import { navigate } from '../router.js';

// A link inside the console: a real <a href> (open in a new tab, copy the address), followed
// without a page load on a plain click.

interface Props {
  to: string;
  children: ComponentChildren;
  'aria-current'?: 'page';
}

export function Link({ to, children, ...rest }: Props): JSX.Element {
  const follow = (event: MouseEvent) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={follow} {...rest}>
      {children}
    </a>
  );
}
