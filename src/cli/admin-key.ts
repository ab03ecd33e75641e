import { createAdminKey, listAdminKeys, revokeAdminKey } from '../keys/admin.js';
import { ADMIN_PREFIX, generateKey, hashKey } from '../keys/token.js';
import { CliError, parse, withStorage } from './context.js';

// `storefront admin-key …`: the keys of the admin API (docs/API.md, "Admin API"; src/keys/admin.ts).

const USAGE = 'storefront admin-key create [--label <text>] [--no-store] | admin-key list | admin-key revoke <id>';

export async function adminKey(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'create') return create(rest);
  if (sub === 'list') return list(rest);
  if (sub === 'revoke') return revoke(rest);
  throw new CliError(`storefront admin-key: unknown subcommand ${sub ? `"${sub}"` : '(none)'}; use: ${USAGE}`, 2);
}

async function create(rest: string[]): Promise<void> {
  const { values } = parse(
    'admin-key create',
    rest,
    {
      label: { type: 'string', value: '<text>', help: 'who or what holds the key' },
      'no-store': {
        type: 'boolean',
        help: 'store nothing: print the key, then its hash for STOREFRONT_ADMIN_KEYS, one a line',
      },
    },
    [],
  );
  if (values['no-store']) {
    const key = generateKey(ADMIN_PREFIX);
    process.stdout.write(`${key}\n${hashKey(key)}\n`);
    return;
  }
  const label = ((values.label as string | undefined) ?? '').trim();
  const made = await withStorage(values, (storage) => createAdminKey(storage.db, label));
  process.stdout.write(`${made.key}\n`); // the key alone: it is never shown again
}

/** One key a line, tab-separated: id, label, created_at; never a key. */
async function list(rest: string[]): Promise<void> {
  const { values } = parse('admin-key list', rest, {}, []);
  const keys = await withStorage(values, (storage) => listAdminKeys(storage.db));
  process.stdout.write(keys.map((k) => `${k.id}\t${k.label}\t${k.created_at}\n`).join(''));
}

async function revoke(rest: string[]): Promise<void> {
  const { values, positionals } = parse('admin-key revoke', rest, {}, ['id']);
  const id = /^[1-9][0-9]{0,15}$/.test(positionals[0]) ? Number(positionals[0]) : NaN;
  if (!Number.isSafeInteger(id))
    throw new CliError(`storefront admin-key revoke: "${positionals[0]}" is not a key id`, 2);
  const done = await withStorage(values, (storage) => revokeAdminKey(storage.db, id));
  if (!done) throw new CliError(`storefront admin-key revoke: no working admin key with id ${id}`);
  process.stdout.write(`revoked admin key ${id}\n`);
}
