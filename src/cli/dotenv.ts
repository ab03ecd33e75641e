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
  for (const line of brokenLines(text))
    process.stderr.write(`storefront: ${path} line ${line}: not NAME=value, ignored\n`);
  for (const [name, value] of Object.entries(util.parseEnv(text)))
    if (process.env[name] === undefined) process.env[name] = value;
}

const ASSIGNMENT = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*=\s*(.*)$/;

/**
 * The numbers of the lines util.parseEnv would skip without a word (a typo such as
 * `PORT 3000` or `=x`): neither blank, nor a comment, nor an assignment, nor inside a quoted
 * value that spans lines.
 */
export function brokenLines(text: string): number[] {
  const broken: number[] = [];
  let quote: string | undefined; // the quote a multi-line value is waiting for
  text.split(/\r?\n/).forEach((line, i) => {
    if (quote !== undefined) {
      if (line.includes(quote)) quote = undefined;
      return;
    }
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const match = ASSIGNMENT.exec(line);
    if (!match) return void broken.push(i + 1);
    const value = match[1];
    const open = value[0];
    if ((open === '"' || open === "'" || open === '`') && !value.slice(1).includes(open)) quote = open;
  });
  return broken;
}
