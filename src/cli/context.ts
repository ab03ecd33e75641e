import { type ParseArgsConfig, parseArgs } from 'node:util';
import { databaseUrlOf } from '../config.js';
import { type ConnectOptions, type Storage, connect } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { HelpRequested, type OptionSpecs, asksForHelp, placeholder } from './help.js';

/** A CLI failure: printed as one line on stderr, exit code 1 (2 for usage). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly lines: string[] = [],
  ) {
    super(message);
  }
}

export const databaseOption = { database: { type: 'string', value: '<url>' } } as const;

/**
 * parseArgs with our error style: unknown options and missing values are usage errors.
 * What it is given is also the command's --help (help.ts): `--help` or `-h` anywhere
 * answers with the usage made from `command`, `options` and `positionals`.
 */
export function parse(command: string, args: string[], options: OptionSpecs, positionals: string[]) {
  if (asksForHelp(args)) throw new HelpRequested(command, options, positionals);
  // parseArgs' own fields only: `value` and `help` are for --help.
  const config: NonNullable<ParseArgsConfig['options']> = {};
  const specs: OptionSpecs = { ...databaseOption, ...options };
  for (const [name, { type, short, multiple }] of Object.entries(specs))
    config[name] = { type, ...(short === undefined ? {} : { short }), ...(multiple === undefined ? {} : { multiple }) };
  // parseArgs reads `-1` as an unknown option, or as a missing value after an option ("argument
  // is ambiguous"): say plainly that no argument of this CLI is a negative number.
  args.forEach((arg, i) => {
    if (!/^-[0-9]/.test(arg)) return;
    const before = args[i - 1];
    const option = before?.startsWith('--') && specs[before.slice(2)]?.type === 'string' ? before : undefined;
    throw new CliError(
      `storefront ${command}: ${option ? `${option} ` : ''}"${arg}" is negative; ids, counts and durations are positive (0 where a duration may be none)`,
      2,
    );
  });
  let parsed;
  try {
    parsed = parseArgs({ args, options: config, allowPositionals: true, strict: true });
  } catch (e) {
    throw new CliError(`storefront ${command}: ${(e as Error).message.split('\n')[0]}`, 2);
  }
  if (parsed.positionals.length < positionals.length) {
    throw new CliError(
      `storefront ${command}: missing ${placeholder(positionals[parsed.positionals.length])} (usage: storefront ${command} ${positionals.map(placeholder).join(' ')})`,
      2,
    );
  }
  // A last positional named `…` takes one or more values (storefront delete's ids).
  const variadic = positionals.at(-1)?.endsWith('…') ?? false;
  if (parsed.positionals.length > positionals.length && !variadic)
    throw new CliError(`storefront ${command}: unexpected argument "${parsed.positionals[positionals.length]}"`, 2);
  return parsed as { values: Record<string, string | boolean | undefined>; positionals: string[] };
}

export function databaseUrl(values: Record<string, unknown>): string {
  return (values.database as string | undefined) || databaseUrlOf();
}

/** A storage whose schema is up to date; `applied` names the migrations this opening ran. */
export type OpenStorage = Storage & { applied: string[] };

/** Opens the storage and brings its schema up to date, as every command that touches it does. */
export async function openStorage(values: Record<string, unknown>, options: ConnectOptions = {}): Promise<OpenStorage> {
  let storage: Storage;
  try {
    storage = connect(databaseUrl(values), { ...options, longRunning: true });
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  let applied: string[];
  try {
    applied = await migrateToLatest(storage.db);
  } catch (e) {
    await storage.close().catch(() => {});
    throw new CliError(`cannot open ${storage.describe}: ${(e as Error).message.split('\n')[0]}`);
  }
  return { ...storage, applied };
}

export async function withStorage<T>(
  values: Record<string, unknown>,
  work: (storage: OpenStorage) => Promise<T>,
  options: ConnectOptions = {},
): Promise<T> {
  const storage = await openStorage(values, options);
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}
