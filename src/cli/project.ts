import { CURRENCY, PROJECT_ID, findProject, upsertProject } from '../resources/projects/repository.js';
import { CliError, parse, withStorage } from './context.js';

export async function project(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'create')
    throw new CliError(
      `storefront project: unknown subcommand ${sub ? `"${sub}"` : '(none)'}; use: storefront project create <project_id> --name <text> --currency <ISO 4217>`,
      2,
    );
  const { values, positionals } = parse(
    'project create',
    rest,
    {
      name: { type: 'string', value: '<text>', help: "the project's name", required: true },
      currency: { type: 'string', value: '<ISO 4217>', help: 'its currency, such as USD', required: true },
    },
    ['project_id'],
  );
  const [id] = positionals;
  const name = (values.name as string | undefined)?.trim();
  const currency = values.currency as string | undefined;
  if (!PROJECT_ID.test(id))
    throw new CliError(
      `storefront project create: project id "${id}" must be 1 to 64 of a-z, 0-9, _ and -, starting with a letter or digit`,
      2,
    );
  if (!name) throw new CliError('storefront project create: --name <text> is required', 2);
  if (!currency || !CURRENCY.test(currency))
    throw new CliError('storefront project create: --currency must be a three-letter ISO 4217 code such as USD', 2);
  await withStorage(values, async (storage) => {
    if (await findProject(storage.db, id))
      throw new CliError(`storefront project create: project "${id}" already exists`);
    await upsertProject(storage.db, { id, name, currency });
  });
  process.stdout.write(`created project ${id}\n`);
}
