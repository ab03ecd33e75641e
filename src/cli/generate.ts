import { generate } from '../generate/generate.js';
import { PROJECT_ID } from '../http/schemas.js';
import { countsOf } from './plural.js';
import { CliError, parse, withStorage } from './context.js';

const COUNT = /^\d{1,9}$/;

export async function generateCommand(args: string[]): Promise<void> {
  const { values, positionals } = parse(
    'generate',
    args,
    {
      products: { type: 'string', value: 'N', help: 'products to add (default 0)' },
      orders: { type: 'string', value: 'N', help: 'orders to add (default 0)' },
      users: { type: 'string', value: 'N', help: 'users to add (default 0)' },
    },
    ['project_id'],
  );
  const [projectId] = positionals;
  if (!PROJECT_ID.test(projectId))
    throw new CliError(`storefront generate: "${projectId}" is not a project id (1 to 64 of a-z, 0-9, _ and -)`, 2);
  const counts: Record<'products' | 'orders' | 'users', number> = { products: 0, orders: 0, users: 0 };
  for (const name of Object.keys(counts) as (keyof typeof counts)[]) {
    const v = values[name] as string | undefined;
    if (v === undefined) continue;
    if (!COUNT.test(v))
      throw new CliError(`storefront generate: --${name} must be a whole number from 0 to 999999999`, 2);
    counts[name] = Number(v);
  }
  const tty = process.stderr.isTTY;
  const started = Date.now();
  const summary = await withStorage(
    values,
    (storage) =>
      generate(storage, projectId, {
        ...counts,
        onProgress: tty
          ? (what, done, total) =>
              process.stderr.write(
                `\r${what} ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}…\x1b[K`,
              )
          : undefined,
      }),
    { sqliteCacheMiB: 256 },
  );
  if (tty) process.stderr.write('\r\x1b[K');
  const c = summary.counts;
  const k = summary.kept;
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const kept =
    k.categories || k.plans
      ? `; kept its ${n(k.categories, 'category', 'categories')} and ${n(k.plans, 'plan', 'plans')}`
      : '';
  process.stdout.write(
    `generated into ${summary.projectId}: ${countsOf(c)} (${((Date.now() - started) / 1000).toFixed(1)} s)${kept}\n`,
  );
}
