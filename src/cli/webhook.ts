import { webhookAllowPrivate } from '../config.js';
import { parseDuration } from '../config-values.js';
import { findProject } from '../resources/projects/repository.js';
import { AddressRefused, checkEndpointUrl } from '../webhooks/address-guard.js';
// Endpoints as src/webhooks/ keeps them, shared with the HTTP routes.
import * as hooks from '../webhooks/endpoints.js';
import { EVENT_TYPES, type EventType, isEventType } from '../webhooks/events.js';
import { CliError, parse, withStorage } from './context.js';

// `storefront webhook …` (README, "Command line"; docs/API.md, "Webhooks"). The same
// repository as the HTTP API (src/webhooks/endpoints.ts); every listing is tab-separated,
// one item a line, for scripts.

const SUBCOMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  create,
  list,
  delete: remove,
  deliveries,
  replay,
  enable,
  'roll-secret': roll,
};

export async function webhook(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const run = sub ? SUBCOMMANDS[sub] : undefined;
  if (!run)
    throw new CliError(
      `storefront webhook: unknown subcommand ${sub ? `"${sub}"` : '(none)'}; use ${Object.keys(SUBCOMMANDS).join(', ')}`,
      2,
    );
  return run(rest);
}

const seconds = () => Math.floor(Date.now() / 1000);

async function create(args: string[]): Promise<void> {
  const { values, positionals } = parse(
    'webhook create',
    args,
    {
      events: {
        type: 'string',
        value: 'a,b',
        help: `the event types to send (default: every type): ${EVENT_TYPES.join(', ')}`,
      },
    },
    ['project_id', 'url'],
  );
  const [projectId, url] = positionals;
  const events = values.events === undefined ? undefined : eventList(values.events as string);
  try {
    await checkEndpointUrl(url, webhookAllowPrivate());
  } catch (e) {
    if (e instanceof AddressRefused) throw new CliError(`storefront webhook create: the URL ${e.message}`, 2);
    throw e;
  }
  const made = await withStorage(values, async (storage) => {
    if (!(await findProject(storage.db, projectId)))
      throw new CliError(`storefront webhook create: project "${projectId}" not found`);
    try {
      return await hooks.createEndpoint(storage, projectId, url, events, seconds());
    } catch (e) {
      if (e instanceof hooks.TooManyEndpoints) throw new CliError(`storefront webhook create: ${e.message}`);
      throw e;
    }
  });
  // The id and the secret, tab-separated on one line: the secret is never shown again.
  process.stdout.write(`${made.info.id}\t${made.secret}\n`);
  process.stderr.write(
    `webhook endpoint ${made.info.id} sends ${events ? events.join(', ') : 'every event'} to ${url}; keep the secret (shown only now)\n`,
  );
}

async function list(args: string[]): Promise<void> {
  const { values, positionals } = parse('webhook list', args, {}, ['project_id']);
  const endpoints = await withStorage(values, async (storage) => {
    if (!(await findProject(storage.db, positionals[0])))
      throw new CliError(`storefront webhook list: project "${positionals[0]}" not found`);
    return hooks.listEndpoints(storage, positionals[0], seconds());
  });
  for (const e of endpoints)
    process.stdout.write(
      [
        e.id,
        e.url,
        e.events ? e.events.join(',') : '*',
        e.disabled_at === null ? 'enabled' : `disabled: ${e.disabled_reason ?? ''}`,
        e.created_at,
      ].join('\t') + '\n',
    );
}

async function remove(args: string[]): Promise<void> {
  const { values, positionals } = parse('webhook delete', args, {}, ['endpoint_id']);
  const id = endpointId('webhook delete', positionals[0]);
  if (!(await withStorage(values, (storage) => hooks.deleteEndpoint(storage, id))))
    throw new CliError(`storefront webhook delete: no webhook endpoint with id ${id}`);
  process.stdout.write(`deleted webhook endpoint ${id}\n`);
}

async function deliveries(args: string[]): Promise<void> {
  const { values, positionals } = parse('webhook deliveries', args, {}, ['endpoint_id']);
  const id = endpointId('webhook deliveries', positionals[0]);
  const list = await withStorage(values, (storage) => hooks.listDeliveries(storage, id));
  if (!list) throw new CliError(`storefront webhook deliveries: no webhook endpoint with id ${id}`);
  // message id, type, status, attempts, the last attempt's status (or error), next attempt or end
  for (const d of list) {
    const last = d.attempts.at(-1);
    process.stdout.write(
      [
        d.message_id,
        d.type,
        d.status,
        d.attempts.length,
        last ? (last.status ?? last.error ?? '') : '',
        d.status === 'pending' ? (d.next_attempt_at ?? '') : (d.finished_at ?? ''),
      ].join('\t') + '\n',
    );
  }
}

async function replay(args: string[]): Promise<void> {
  const { values, positionals } = parse('webhook replay', args, {}, ['message_id']);
  const [messageId] = positionals;
  const endpoints = await withStorage(values, (storage) => hooks.replayMessage(storage, messageId, Date.now()));
  if (!endpoints) throw new CliError(`storefront webhook replay: no message ${messageId} (or no longer kept)`);
  for (const e of endpoints)
    process.stdout.write(
      `replaying ${messageId} to webhook endpoint ${e.endpoint_id}${e.disabled ? ' (disabled: it waits until storefront webhook enable)' : ''}\n`,
    );
}

async function enable(args: string[]): Promise<void> {
  const { values, positionals } = parse('webhook enable', args, {}, ['endpoint_id']);
  const id = endpointId('webhook enable', positionals[0]);
  if (!(await withStorage(values, (storage) => hooks.enableEndpoint(storage, id, seconds()))))
    throw new CliError(`storefront webhook enable: no webhook endpoint with id ${id}`);
  process.stdout.write(`enabled webhook endpoint ${id}\n`);
}

async function roll(args: string[]): Promise<void> {
  const { values, positionals } = parse(
    'webhook roll-secret',
    args,
    {
      overlap: {
        type: 'string',
        value: '<n>',
        help: 'how long the old secret also signs (30m, 24h, 7d; default 24h; 0: it stops at once)',
      },
    },
    ['endpoint_id'],
  );
  const id = endpointId('webhook roll-secret', positionals[0]);
  let overlap = hooks.DEFAULT_SECRET_OVERLAP_SECONDS;
  if (values.overlap !== undefined) {
    const n = values.overlap === '0' ? 0 : parseDuration(values.overlap as string);
    if (n === undefined || n > hooks.MAX_SECRET_OVERLAP_SECONDS)
      throw new CliError(
        `storefront webhook roll-secret: --overlap must be a whole number followed by s, m, h or d, at most ${hooks.MAX_SECRET_OVERLAP_SECONDS / 86_400}d`,
        2,
      );
    overlap = n;
  }
  const rolled = await withStorage(values, (storage) => hooks.rollSecret(storage, id, overlap, seconds()));
  if (!rolled) throw new CliError(`storefront webhook roll-secret: no webhook endpoint with id ${id}`);
  process.stdout.write(`${rolled.secret}\n`);
  if (rolled.info.previous_secret_until)
    process.stderr.write(
      `both secrets sign until ${new Date(rolled.info.previous_secret_until * 1000).toISOString()}, then only the new one\n`,
    );
  else process.stderr.write('the old secret stopped signing at once\n');
}

function endpointId(command: string, text: string): number {
  const id = /^[0-9]{1,15}$/.test(text) ? Number(text) : NaN;
  if (!(id >= 1))
    throw new CliError(
      `storefront ${command}: endpoint id "${text}" must be a positive integer (see storefront webhook list)`,
      2,
    );
  return id;
}

function eventList(text: string): EventType[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = names.find((s) => !isEventType(s));
  if (names.length === 0 || unknown !== undefined)
    throw new CliError(
      `storefront webhook create: ${unknown ? `unknown event "${unknown}"` : 'no event'} in --events; use a comma-separated list of ${EVENT_TYPES.join(', ')}`,
      2,
    );
  return [...new Set(names)] as EventType[];
}
