import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

// Headless Chromium for the browser tests: Debian's `chromium` package, driven by
// playwright-core (which downloads no browser of its own). When it is missing and this
// process may use apt, it is installed; when that is impossible the tests are skipped,
// loudly, with the reason.

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type ChromiumLookup = { path: string; skip: false } | { path: undefined; skip: string };

let lookup: ChromiumLookup | undefined;

/** The Chromium executable, installing it with apt when needed; or why there is none. */
export function findChromium(): ChromiumLookup {
  lookup ??= chosen() ?? locate() ?? install();
  if (lookup.skip) console.log(`\n# !!! BROWSER TESTS SKIPPED: ${lookup.skip}\n`);
  return lookup;
}

/** CHROMIUM_PATH names the browser to use (a Chrome, say); a wrong one is not silently replaced. */
function chosen(): ChromiumLookup | undefined {
  const path = process.env.CHROMIUM_PATH;
  if (!path) return undefined;
  return existsSync(path) ? { path, skip: false } : { path: undefined, skip: `CHROMIUM_PATH=${path} does not exist` };
}

function locate(): ChromiumLookup | undefined {
  const path = CANDIDATES.find((p) => existsSync(p));
  return path ? { path, skip: false } : undefined;
}

function install(): ChromiumLookup {
  if (process.env.STOREFRONT_NO_APT === '1')
    return { path: undefined, skip: 'chromium is not installed and STOREFRONT_NO_APT=1 forbids installing it' };
  if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) {
    return {
      path: undefined,
      skip: 'chromium is not installed and there is no apt-get here; set CHROMIUM_PATH to a Chromium or Chrome executable',
    };
  }
  if (process.getuid?.() !== 0) {
    return {
      path: undefined,
      skip: 'chromium is not installed and apt-get needs root; run `sudo apt-get install chromium` or set CHROMIUM_PATH',
    };
  }
  console.log('# chromium not found: installing it with apt-get (this can take a few minutes)');
  // Another apt run may hold the lock (an install already under way): wait for it.
  const apt = (...args: string[]) =>
    spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=900', ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 20 * 60_000,
    }).status;
  if (apt('install', '-y', '--no-install-recommends', 'chromium') !== 0) {
    apt('update');
    apt('install', '-y', '--no-install-recommends', 'chromium');
  }
  return locate() ?? { path: undefined, skip: '`apt-get install chromium` did not install a chromium executable' };
}

/** A headless Chromium, closed by the caller. */
export async function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 60_000 });
}
