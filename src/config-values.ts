// The parsers of the environment's values (src/config.ts reads the environment; these only
// judge a value): each says which variable was wrong and what it takes. The CLI's durations
// (`--expires-in`) are read by the same rule as BACKUP_EVERY's.

export class ConfigError extends Error {}

export function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new ConfigError(`port must be an integer from 0 to 65535, got "${value}"`);
  return Number(value);
}

export function parsePoolSize(value: string): number {
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > 1000) {
    throw new ConfigError(`DATABASE_POOL_SIZE must be an integer from 1 to 1000, got "${value}"`);
  }
  return Number(value);
}

// Two readers: on a small machine more threads than cores only share the same cores, and
// one slow query still leaves a reader for everything else.
export const DEFAULT_SQLITE_READERS = 2;

export function parseReaders(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_SQLITE_READERS;
  if (!/^\d{1,2}$/.test(value) || Number(value) > 64)
    throw new ConfigError(`SQLITE_READERS must be an integer from 0 to 64, got "${value}"`);
  return Number(value);
}

export function parseCount(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,12}$/.test(value) || Number(value) < 1)
    throw new ConfigError(`${name} must be a positive integer, got "${value}"`);
  return Number(value);
}

/** A count that may be 0 (0 turns the setting off). */
export function parseCountOrZero(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,12}$/.test(value)) throw new ConfigError(`${name} must be 0 or a positive integer, got "${value}"`);
  return Number(value);
}

export function parseSwitch(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (['1', 'on', 'true'].includes(value)) return true;
  if (['0', 'off', 'false'].includes(value)) return false;
  throw new ConfigError(`${name} must be on or off, got "${value}"`);
}

export function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value); // this many proxies in front
  return value; // an address, a CIDR or a comma-separated list of them
}

/** DATABASE_REPLICA_URLS: comma-separated postgres:// URLs of streaming standbys (CONTRACT 16). */
export function parseReplicaUrls(value: string | undefined, databaseUrl: string): string[] {
  const urls = (value ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  if (urls.length === 0) return [];
  if (!/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new ConfigError('DATABASE_REPLICA_URLS needs a PostgreSQL DATABASE_URL (the primary the replicas follow)');
  for (const url of urls)
    if (!/^postgres(ql)?:\/\/./.test(url))
      throw new ConfigError(
        `DATABASE_REPLICA_URLS takes postgres:// URLs separated by commas, got "${url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@')}"`,
      );
  return urls;
}

/** STOREFRONT_ADMIN_KEYS: SHA-256 hashes of admin keys, hex, comma-separated (src/keys/admin.ts). */
export function parseAdminKeyHashes(value: string | undefined): readonly string[] {
  const hashes = (value ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  for (const h of hashes)
    if (!/^[0-9a-f]{64}$/.test(h))
      throw new ConfigError(
        `STOREFRONT_ADMIN_KEYS must list SHA-256 hashes in lower-case hex (storefront admin-key create --no-store prints one), got "${h.slice(0, 16)}…"`,
      );
  return Object.freeze(hashes);
}

// `--expires-in 90d`, `--overlap 24h`, BACKUP_EVERY: a whole number followed by s, m, h or d.
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** Seconds of a duration like "90d"; undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const match = /^([0-9]{1,9})([smhd])$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}
