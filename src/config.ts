// Configuration comes from the environment once, is checked, and is frozen: a bad value
// fails at start-up with a clear line, never mid-request.

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** PostgreSQL: most connections one process opens (DATABASE_POOL_SIZE) */
  databasePoolSize: number;
  demo: boolean;
  logLevel: string;
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/storefront.db';

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  const port = overrides.port ?? parsePort(env.PORT ?? '3000');
  const config: Config = {
    port,
    host: overrides.host ?? env.HOST ?? '127.0.0.1',
    databaseUrl: overrides.databaseUrl ?? (env.DATABASE_URL || DEFAULT_DATABASE_URL),
    databasePoolSize: overrides.databasePoolSize ?? parsePoolSize(env.DATABASE_POOL_SIZE ?? '10'),
    demo: overrides.demo ?? env.STOREFRONT_DEMO !== '0',
    logLevel: overrides.logLevel ?? env.LOG_LEVEL ?? 'info',
  };
  return Object.freeze(config);
}

export function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new ConfigError(`port must be an integer from 0 to 65535, got "${value}"`);
  return Number(value);
}

export function parsePoolSize(value: string): number {
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > 1000) {
    throw new ConfigError(`DATABASE_POOL_SIZE must be an integer from 1 to 1000, got "${value}"`);
  }
  return Number(value);
}
