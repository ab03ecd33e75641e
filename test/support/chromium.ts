import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

// Browser tests drive Debian's chromium through playwright-core (which downloads no
// browser of its own). When /usr/bin/chromium is missing it is installed with apt-get; only
// a machine that cannot install it (no apt-get, not root) skips those tests, loudly. A failed
// install is an error, not a skip: it must not pass unnoticed.

export const CHROMIUM = '/usr/bin/chromium';

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

export type ChromiumLookup = { path: string } | { skip: string };

let lookup: ChromiumLookup | undefined;

/** Finds /usr/bin/chromium, installing it when possible; the result is kept for the process. */
export function findChromium(): ChromiumLookup {
  lookup ??= locate();
  return lookup;
}

function locate(): ChromiumLookup {
  if (works()) return { path: CHROMIUM };
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    return skip('apt-get is not available to install chromium');
  }
  if (process.getuid?.() !== 0) return skip('installing chromium with apt-get needs root');
  // Another process may hold the dpkg lock (an install already under way): wait for it.
  const install = () =>
    spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      encoding: 'utf8',
    });
  let result = install();
  if (result.status !== 0) {
    spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'update'], { stdio: 'ignore' });
    result = install();
  }
  if (result.status !== 0 || !works()) {
    throw new Error(`apt-get install chromium failed (exit ${result.status}): ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
  return { path: CHROMIUM };
}

function works(): boolean {
  try {
    accessSync(CHROMIUM, constants.X_OK);
  } catch {
    return false;
  }
  return spawnSync(CHROMIUM, ['--version'], { stdio: 'ignore', timeout: 30_000 }).status === 0;
}

function skip(reason: string): ChromiumLookup {
  const message = `BROWSER TESTS SKIPPED: ${reason}; install Debian's chromium at ${CHROMIUM} to run them`;
  console.warn(`\n${'!'.repeat(message.length)}\n${message}\n${'!'.repeat(message.length)}\n`);
  return { skip: message };
}
