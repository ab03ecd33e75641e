import type { JSX } from 'preact';

// Inline SVG icons (no icon font, no request): 24-unit strokes in the text colour. They are
// decoration beside a text label, so they are hidden from assistive technology.

const PATHS = {
  home: 'M3 11l9-8 9 8M5 10v10h5v-6h4v6h5V10',
  orders: 'M6 3h12l1 4H5zM5 7h14v13H5zM9 11h6',
  products: 'M12 3l8 4v10l-8 4-8-4V7zM4 7l8 4 8-4M12 11v10',
  categories: 'M4 5h6v6H4zM14 5h6v6h-6zM4 15h6v6H4zM17 14v7M14 17.5h6',
  plans: 'M4 6h16v12H4zM4 10h16M8 14h3',
  users: 'M9 11a4 4 0 100-8 4 4 0 000 8zM2 21c0-4 3-6 7-6s7 2 7 6M17 11a3 3 0 100-6M22 20c0-3-2-5-5-5',
  keys: 'M15 7a4 4 0 11-3.9 5H3v3h3v3h3v-3h2.1A4 4 0 0115 7z',
  webhooks: 'M10 13a4 4 0 106 3M14 11a4 4 0 10-6-3M6 16a4 4 0 106 3',
  imports: 'M12 16V4M7 9l5-5 5 5M4 20h16',
  download: 'M12 4v12M7 11l5 5 5-5M4 20h16',
  lock: 'M6 11h12v10H6zM8 11V7a4 4 0 018 0v4',
  copy: 'M8 8h12v12H8zM4 16V4h12',
  out: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10',
  check: 'M4 12l5 5L20 6',
  alert: 'M12 3l10 18H2zM12 10v5M12 18v.5',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }): JSX.Element {
  return (
    <svg
      class="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="1.8"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
