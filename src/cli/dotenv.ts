import { readFileSync } from 'node:fs';
import * as util from 'node:util';
import { CliError } from './context.js';

/**
 * Reads `.env` in the working directory into process.env, as every command starts. A variable
 * already set in the environment wins over the file, so `PORT=4000 npm start` overrides a
 * `PORT` in `.env`. No file is no error. (process.loadEnvFile also leaves set variables alone,
 * but reports a directory or an unreadable file without saying which: we read the file.)
 */
export function loadDotEnv(path = '.env'): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new CliError(`storefront: cannot read ${path} (${code ?? (e as Error).message})`);
  }
  // util.parseEnv came with Node 20.12; on an older Node only a .env that exists is refused.
  if (typeof util.parseEnv !== 'function')
    throw new CliError(`storefront: reading ${path} needs Node.js 20.12 or newer`);
  for (const [name, value] of Object.entries(util.parseEnv(text)))
    if (process.env[name] === undefined) process.env[name] = value;
}
