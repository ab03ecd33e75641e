import type { Kind } from '../resources/registry.js';
import { listProjectsWithCounts } from '../resources/projects/admin.js';
import { deleteProject } from '../writes/delete-project.js';
import { PROJECT_ID } from '../http/schemas.js';
import { CURRENCY, findProject } from '../resources/projects/repository.js';
import { saveProject } from '../writes/project.js';
import { CliError, parse, withStorage } from './context.js';
import { writeProject } from '../writes/write-project.js';
import { countsOf } from './plural.js';

const USAGE =
  'storefront project create <project_id> --name <text> --currency <ISO 4217> | project list | project delete <project_id> --yes';

export async function project(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'create') return create(rest);
  if (sub === 'list') return list(rest);
  if (sub === 'delete') return remove(rest);
  throw new CliError(`storefront project: unknown subcommand ${sub ? `"${sub}"` : '(none)'}; use: ${USAGE}`, 2);
}

async function create(rest: string[]): Promise<void> {
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
    await writeProject(storage, id, (ctx) => saveProject(ctx, { id, name, currency }));
  });
  process.stdout.write(`created project ${id}\n`);
}

function describeCounts(counts: Record<Kind, number>): string {
  return countsOf(counts);
}

/** One project a line, tab-separated: id, name, currency, its record counts. */
async function list(rest: string[]): Promise<void> {
  const { values } = parse('project list', rest, {}, []);
  const projects = await withStorage(values, (storage) => listProjectsWithCounts(storage.db));
  process.stdout.write(
    projects.map((p) => `${p.id}\t${p.name}\t${p.currency}\t${describeCounts(p.counts)}\n`).join(''),
  );
}

async function remove(rest: string[]): Promise<void> {
  const { values, positionals } = parse(
    'project delete',
    rest,
    { yes: { type: 'boolean', help: 'really remove it (without: say what would be removed, and stop)' } },
    ['project_id'],
  );
  const [id] = positionals;
  await withStorage(values, async (storage) => {
    const found = PROJECT_ID.test(id) ? (await listProjectsWithCounts(storage.db)).find((p) => p.id === id) : undefined;
    if (!found) throw new CliError(`storefront project delete: project "${id}" not found`);
    if (!values.yes)
      throw new CliError(
        `storefront project delete: not done: this removes project ${id} (${found.name}) and everything in it: ${describeCounts(found.counts)}, its API keys and its change feed; run again with --yes`,
      );
    await deleteProject(storage, id);
  });
  process.stdout.write(`deleted project ${id}\n`);
}
