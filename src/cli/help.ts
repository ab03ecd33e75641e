import { DEFAULT_DATABASE_URL } from '../config.js';

// `--help` for every command, made from what the command declares to `parse` (its name, its
// <positionals> and its options, each option with an optional `value` placeholder and `help`
// line) plus its one-line summary in main.ts's ABOUT. A new command that parses its arguments
// with `parse` answers `--help` without any code of its own.

/** An option as a command declares it: parseArgs' fields, and what --help says of it. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** the placeholder shown after the option in --help, e.g. `N` (default `<value>`) */
  value?: string;
  /** one line for --help */
  help?: string;
  /** shown without brackets in the synopsis (the command checks it) */
  required?: boolean;
}

export type OptionSpecs = Record<string, OptionSpec>;

/** Thrown by `parse` when the arguments ask for help: main prints it on stdout and exits 0. */
export class HelpRequested extends Error {
  constructor(
    readonly command: string,
    readonly options: OptionSpecs,
    readonly positionals: string[],
  ) {
    super(`help for ${command}`);
  }
}

export const HELP_FLAGS = ['--help', '-h'];

/** Whether the arguments ask for help (`--help` or `-h` anywhere before a `--`). */
export function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => HELP_FLAGS.includes(a));
}

const DATABASE_DEFAULT = `$DATABASE_URL, then ${DEFAULT_DATABASE_URL}`;
const DATABASE_HELP = `the database (default ${DATABASE_DEFAULT})`;

/** The --help text of one command. */
export function commandHelp(request: HelpRequested, summary: string | undefined): string {
  const options: [string, string][] = Object.entries(request.options)
    .filter(([name]) => name !== 'database')
    .map(([name, o]) => [optionLabel(name, o), o.help ?? '']);
  options.push(['--database <url>', DATABASE_HELP], ['-h, --help', 'show this help']);
  const synopsis = [
    `storefront ${request.command}`,
    ...request.positionals.map(placeholder),
    ...Object.entries(request.options)
      .filter(([name]) => name !== 'database')
      .map(([name, o]) => (o.required ? optionLabel(name, o) : `[${optionLabel(name, o)}]`)),
    '[--database <url>]',
  ].join(' ');
  const width = Math.max(...options.map(([label]) => label.length)) + 2;
  return [
    `usage: ${synopsis}`,
    ...(summary ? ['', summary] : []),
    '',
    'options:',
    ...options.map(([label, help]) => `  ${label.padEnd(width)}${help}`.trimEnd()),
    '',
  ].join('\n');
}

/** `<name>`, or `<name>…` for a positional that takes one or more values. */
export function placeholder(name: string): string {
  return name.endsWith('…') ? `<${name.slice(0, -1)}>…` : `<${name}>`;
}

function optionLabel(name: string, o: OptionSpec): string {
  return o.type === 'boolean' ? `--${name}` : `--${name} ${o.value ?? '<value>'}`;
}

/** The list of commands (`storefront --help`), or of one command's subcommands. */
export function commandList(about: Record<string, string>, group?: string): string {
  const names = Object.keys(about).filter((n) => !group || n.startsWith(`${group} `));
  const width = Math.max(...names.map((n) => n.length)) + 2;
  return [
    `usage: storefront ${group ?? '<command>'} ${group ? '<subcommand> ' : ''}[options]`,
    '',
    ...names.map((n) => `  ${n.padEnd(width)}${about[n]}`),
    '',
    `Every command takes --database <url> (default ${DATABASE_DEFAULT}).`,
    `Run storefront ${group ? `${group} ` : ''}<${group ? 'subcommand' : 'command'}> --help for its arguments and options.`,
    '',
  ].join('\n');
}
