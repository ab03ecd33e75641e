import { CliError } from './context.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { key } from './key.js';
import { migrate } from './migrate.js';
import { project } from './project.js';
import { serve } from './serve.js';

const USAGE = `usage: storefront <command> [--database <url>]

  serve [--port N] [--host H]        serve the API (migrates first)
  migrate                             create or upgrade the schema
  project create <project_id> --name <text> --currency <ISO 4217>
  key create <project_id> [--label <text>]   print a new API key (shown once)
  key list <project_id>              id, label, created_at, last_used_at
  key revoke <key_id>                the key stops working at once
  import <file.json|file.ndjson>     load a project's data, all or nothing
  export <project_id>                write the project as JSON to stdout

--database defaults to $DATABASE_URL, then sqlite:./data/storefront.db`;

const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  serve,
  migrate,
  project,
  key,
  import: importCommand,
  export: exportCommand,
};

export async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    if (!command) process.exitCode = 2;
    return;
  }
  const run = COMMANDS[command];
  try {
    if (!run) throw new CliError(`storefront: unknown command "${command}" (run storefront help)`, 2);
    await run(args);
  } catch (e) {
    if (e instanceof CliError) {
      process.stderr.write(`${e.message}\n${e.lines.map((l) => `  ${l}\n`).join('')}`);
      process.exitCode = e.exitCode;
    } else {
      process.stderr.write(`storefront ${command}: ${(e as Error).message?.split('\n')[0] ?? String(e)}\n`);
      process.exitCode = 1;
    }
  }
}
