import { parseDuration } from '../config-values.js';
import {
  type KeyInfo,
  MAX_LIFETIME_SECONDS,
  MAX_OVERLAP_SECONDS,
  createKey,
  listKeys,
  revokeKey,
  rollKey,
} from '../keys/repository.js';
import { SCOPES, type Scope, isScope } from '../keys/scopes.js';
import { findProject } from '../resources/projects/repository.js';
import { CliError, parse, withStorage } from './context.js';
import { keysAsLines, keysAsTable } from './key-table.js';

// `storefront key …` (README, "Command line"; docs/API.md, "Keys and scopes").

const HELP: Record<string, string> = {
  create: `usage: storefront key create <project_id> [--label <text>] [--scopes a,b] [--expires-in 90d] [--database <url>]

Prints a new API key of the project, alone on one line: it is never shown again.
  --label <text>       who or what holds the key
  --scopes a,b         what the key may do (default: every scope):
                       ${SCOPES.join(', ')}
  --expires-in <n>     refuse the key after n seconds, minutes, hours or days (30m, 12h, 90d)`,
  list: `usage: storefront key list <project_id> [--database <url>]

The keys that still work: id, label, scopes, created, expires, last used; never a key.
A table on a terminal; piped, one key a line, tab-separated: id, label, created_at,
last_used_at, scopes (comma-separated), expires_at (unix seconds; empty for none).`,
  revoke: `usage: storefront key revoke <key_id> [--database <url>]

The key stops working at once, in every server process.`,
  roll: `usage: storefront key roll <key_id> [--overlap 24h] [--database <url>]

Prints a new key with the old one's label, scopes and lifetime; the old key keeps
working for the overlap (default 0: it stops at once), then stops.
  --overlap <n>        how long the old key still works (30m, 24h, 7d; at most 30d)`,
};

const USAGE = `usage: storefront key <create|list|revoke|roll> … (storefront key <subcommand> --help)`;

export async function key(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(`${USAGE}\n\n${Object.values(HELP).join('\n\n')}\n`);
    return;
  }
  if (sub && HELP[sub] && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(`${HELP[sub]}\n`);
    return;
  }
  switch (sub) {
    case 'create':
      return create(rest);
    case 'list':
      return list(rest);
    case 'revoke':
      return revoke(rest);
    case 'roll':
      return roll(rest);
    default:
      throw new CliError(
        `storefront key: unknown subcommand ${sub ? `"${sub}"` : '(none)'}; use create, list, revoke or roll`,
        2,
      );
  }
}

async function create(args: string[]): Promise<void> {
  const { values, positionals } = parse(
    'key create',
    args,
    { label: { type: 'string' }, scopes: { type: 'string' }, 'expires-in': { type: 'string' } },
    ['project_id'],
  );
  const scopes = values.scopes === undefined ? undefined : scopeList(values.scopes as string);
  const expiresIn =
    values['expires-in'] === undefined
      ? undefined
      : duration('key create', '--expires-in', values['expires-in'] as string, 1, MAX_LIFETIME_SECONDS);
  const created = await withStorage(values, async (storage) => {
    await requireProject(storage.db, positionals[0]);
    return createKey(storage, positionals[0], (values.label as string | undefined) ?? '', { scopes, expiresIn });
  });
  process.stdout.write(`${created.key}\n`); // the key alone: it is never shown again
}

async function list(args: string[]): Promise<void> {
  const { values, positionals } = parse('key list', args, {}, ['project_id']);
  const keys: KeyInfo[] = await withStorage(values, async (storage) => {
    await requireProject(storage.db, positionals[0]);
    return listKeys(storage, positionals[0]);
  });
  process.stdout.write(process.stdout.isTTY ? keysAsTable(keys) : keysAsLines(keys));
}

async function revoke(args: string[]): Promise<void> {
  const { values, positionals } = parse('key revoke', args, {}, ['key_id']);
  const id = keyId('key revoke', positionals[0]);
  const revoked = await withStorage(values, (storage) => revokeKey(storage, id));
  if (!revoked) throw new CliError(`storefront key revoke: no live key with id ${id}`);
  process.stdout.write(`revoked key ${id}\n`);
}

async function roll(args: string[]): Promise<void> {
  const { values, positionals } = parse('key roll', args, { overlap: { type: 'string' } }, ['key_id']);
  const id = keyId('key roll', positionals[0]);
  const overlap =
    values.overlap === undefined
      ? 0
      : duration('key roll', '--overlap', values.overlap as string, 0, MAX_OVERLAP_SECONDS);
  const rolled = await withStorage(values, (storage) => rollKey(storage, { keyId: id, overlap }));
  if (!rolled)
    throw new CliError(`storefront key roll: no live key with id ${id} (revoked and expired keys cannot roll)`);
  process.stdout.write(`${rolled.key}\n`); // the new key alone, as key create prints it
  const ends = new Date(rolled.previous.expires_at! * 1000).toISOString();
  process.stderr.write(`key ${id} rolled to key ${rolled.info.id}; key ${id} stops working at ${ends}\n`);
}

function keyId(command: string, text: string): number {
  const id = /^[0-9]{1,15}$/.test(text) ? Number(text) : NaN;
  if (!(id >= 1))
    throw new CliError(
      `storefront ${command}: key id "${text}" must be a positive integer (see storefront key list)`,
      2,
    );
  return id;
}

function scopeList(text: string): Scope[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = names.filter((s) => !isScope(s));
  if (names.length === 0 || unknown.length > 0)
    throw new CliError(
      `storefront key create: ${unknown.length ? `unknown scope "${unknown[0]}"` : 'no scope'} in --scopes; use a comma-separated list of ${SCOPES.join(', ')}`,
      2,
    );
  return names as Scope[];
}

function duration(command: string, option: string, text: string, min: number, max: number): number {
  const seconds = parseDuration(text);
  if (seconds === undefined || seconds < min || seconds > max)
    throw new CliError(
      `storefront ${command}: ${option} must be a whole number followed by s, m, h or d (e.g. 90d), from ${min}s to ${max / 86_400}d`,
      2,
    );
  return seconds;
}

async function requireProject(db: Parameters<typeof findProject>[0], id: string): Promise<void> {
  if (!(await findProject(db, id)))
    throw new CliError(
      `project "${id}" not found (create it with: storefront project create ${id} --name … --currency …)`,
    );
}
