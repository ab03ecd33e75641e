import { CliError } from './context.js';
import { exportCommand } from './export.js';
import { generateCommand } from './generate.js';
import { importCommand } from './import.js';
import { key } from './key.js';
import { migrate } from './migrate.js';
import { project } from './project.js';
import { serve } from './serve.js';

const USAGE = `usage: storefront <command> [--database <url>]

  serve [--port N] [--host H]        serve the API (migrates first)
  migrate                             create or upgrade the schema
  project create <project_id> --name <text> --currency <ISO 4217>
  key create <project_id> [--label <text>] [--scopes a,b] [--expires-in 90d]
                                     print a new API key (shown once)
  key list <project_id>              id, label, scopes, created, expires, last used
  key revoke <key_id>                the key stops working at once
  key roll <key_id> [--overlap 24h]  print a new key; the old one stops after the overlap
  import <file.json|file.ndjson>     load a project's data, all or nothing
  export <project_id>                write the project as JSON to stdout
  generate <project_id> [--products N] [--orders N] [--users N]
                                     add realistic generated data (creates the project)

--database defaults to $DATABASE_URL, then sqlite:./data/storefront.db`;

const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  serve,
  migrate,
  project,
  key,
  import: importCommand,
  export: exportCommand,
  generate: generateCommand,
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
