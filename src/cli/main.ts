import { CliError } from './context.js';
import { loadDotEnv } from './dotenv.js';
import { HelpRequested, asksForHelp, commandHelp, commandList } from './help.js';

// Each command's module is loaded when it runs: `storefront key list` never loads the
// server, and `--help` loads none of them.
type Command = (args: string[]) => Promise<void>;
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.js')).serve,
  migrate: async () => (await import('./migrate.js')).migrate,
  project: async () => (await import('./project.js')).project,
  key: async () => (await import('./key.js')).key,
  'admin-key': async () => (await import('./admin-key.js')).adminKey,
  webhook: async () => (await import('./webhook.js')).webhook,
  import: async () => (await import('./import.js')).importCommand,
  export: async () => (await import('./export.js')).exportCommand,
  generate: async () => (await import('./generate.js')).generateCommand,
  delete: async () => (await import('./delete.js')).deleteCommand,
  backup: async () => (await import('./backup.js')).backup,
  'verify-backup': async () => (await import('./backup.js')).verifyBackupCommand,
  restore: async () => (await import('./backup.js')).restore,
};

/**
 * Each command (and subcommand) in one line, for `storefront --help` and the top of its own
 * --help; its arguments and options come from its `parse` call (help.ts).
 */
const ABOUT: Record<string, string> = {
  serve: 'serve the API (migrates first)',
  migrate: 'create or upgrade the schema',
  'project create': 'create a project',
  'project list': 'one project a line: id, name, currency, record counts',
  'project delete': 'remove a project and everything in it (needs --yes)',
  'key create': 'print a new API key (shown once), with --scopes and --expires-in',
  'key list': 'the keys of a project: id, label, scopes, created, expires, last used',
  'key revoke': 'the key stops working at once',
  'key roll': 'print a new key with the same label and scopes; the old one stops after --overlap',
  'admin-key create': 'print a new admin key (shown once), for the admin API: create, list and delete projects',
  'admin-key list': 'the admin keys that still work: id, label, created_at; never a key',
  'admin-key revoke': 'the admin key stops working at once',
  'webhook create': 'send the events of a project to a URL; prints the endpoint id and its secret (shown once)',
  'webhook list': 'the webhook endpoints of a project: id, URL, events, enabled or why not, created',
  'webhook delete': 'stop sending to an endpoint, and forget its deliveries',
  'webhook deliveries': "an endpoint's latest deliveries: message, type, status, attempts, last answer",
  'webhook replay': 'send a message again to every endpoint it was for',
  'webhook enable': 'send again to an endpoint that a 410 answer disabled',
  'webhook roll-secret': 'print a new secret; the old one also signs during --overlap',
  import: "load a project's data from a .json or .ndjson file, or products from a .csv (--project), all or nothing",
  delete: 'delete records by id or handle, with their cascades, all or nothing (as deletions in an import)',
  export: 'write the project in the import format (JSON, or NDJSON with --format ndjson) to stdout',
  generate: 'add realistic generated data (creates the project); a second run reuses its categories and plans',
  backup: 'write a consistent copy of the whole database to a file while servers keep writing (--verify checks it)',
  'verify-backup': "check a backup's integrity and completeness and print its record counts",
  restore: 'fill an empty database from a backup (--force replaces one that is not)',
};

export async function main(argv: string[]): Promise<void> {
  // A reader that goes away (`storefront export demo | head`) is a normal end, not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(0);
  });
  let [command, ...args] = hoistDatabase(argv);
  if (command === 'help' && args.length) [command, ...args] = [...args, '--help'];
  if (!command || command === 'help' || HELP_FLAG.test(command)) {
    const list = commandList(ABOUT);
    if (command) process.stdout.write(list);
    else {
      process.stderr.write(list);
      process.exitCode = 2;
    }
    return;
  }
  const load = COMMANDS[command];
  try {
    if (!load) throw new CliError(`storefront: unknown command "${command}" (run storefront --help)`, 2);
    // A command with subcommands (project, key): `storefront key --help` lists them.
    if (!(command in ABOUT) && (args.length === 0 || HELP_FLAG.test(args[0])) && asksForHelp(args)) {
      process.stdout.write(commandList(ABOUT, command));
      return;
    }
    loadDotEnv();
    await (
      await load()
    )(args);
  } catch (e) {
    if (e instanceof HelpRequested) {
      process.stdout.write(commandHelp(e, ABOUT[e.command]));
    } else if (e instanceof CliError) {
      process.stderr.write(`${e.message}\n${e.lines.map((l) => `  ${l}\n`).join('')}`);
      process.exitCode = e.exitCode;
    } else {
      process.stderr.write(`storefront ${command}: ${(e as Error).message?.split('\n')[0] ?? String(e)}\n`);
      process.exitCode = 1;
    }
  }
}

const HELP_FLAG = /^(--help|-h)$/;

/**
 * `storefront --database URL project list`: the one option every command takes may also come
 * before the command; it is moved behind it, where the command's own parsing reads it.
 */
function hoistDatabase(argv: string[]): string[] {
  const rest = [...argv];
  const moved: string[] = [];
  while (rest[0] === '--database' || rest[0]?.startsWith('--database=')) {
    const option = rest.shift()!;
    moved.push(option);
    if (option === '--database' && rest.length > 0) moved.push(rest.shift()!);
  }
  return [...rest, ...moved];
}
