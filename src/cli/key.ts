import { createKey, listKeys, revokeKey } from '../keys/repository.js';
import { findProject } from '../resources/projects/repository.js';
import { CliError, parse, withStorage } from './context.js';

export async function key(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'create': {
      const { values, positionals } = parse(
        'key create',
        rest,
        { label: { type: 'string', value: '<text>', help: 'what the key is for' } },
        ['project_id'],
      );
      const created = await withStorage(values, async (storage) => {
        await requireProject(storage.db, positionals[0]);
        return createKey(storage.db, positionals[0], (values.label as string | undefined) ?? '');
      });
      process.stdout.write(`${created.key}\n`); // the key alone: it is never shown again
      return;
    }
    case 'list': {
      const { values, positionals } = parse('key list', rest, {}, ['project_id']);
      const keys = await withStorage(values, async (storage) => {
        await requireProject(storage.db, positionals[0]);
        return listKeys(storage.db, positionals[0]);
      });
      for (const k of keys)
        process.stdout.write(`${k.id}\t${k.label.replace(/[\t\n]/g, ' ')}\t${k.created_at}\t${k.last_used_at ?? ''}\n`);
      return;
    }
    case 'revoke': {
      const { values, positionals } = parse('key revoke', rest, {}, ['key_id']);
      const id = /^[0-9]{1,15}$/.test(positionals[0]) ? Number(positionals[0]) : NaN;
      if (!(id >= 1))
        throw new CliError(
          `storefront key revoke: key id "${positionals[0]}" must be a positive integer (see storefront key list)`,
          2,
        );
      const revoked = await withStorage(values, (storage) => revokeKey(storage.db, id));
      if (!revoked) throw new CliError(`storefront key revoke: no live key with id ${id}`);
      process.stdout.write(`revoked key ${id}\n`);
      return;
    }
    default:
      throw new CliError(
        `storefront key: unknown subcommand ${sub ? `"${sub}"` : '(none)'}; use create, list or revoke`,
        2,
      );
  }
}

async function requireProject(db: Parameters<typeof findProject>[0], id: string): Promise<void> {
  if (!(await findProject(db, id)))
    throw new CliError(
      `project "${id}" not found (create it with: storefront project create ${id} --name … --currency …)`,
    );
}
