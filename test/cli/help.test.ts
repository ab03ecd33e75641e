import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../support/processes.js';

// Every command answers --help on stdout with exit 0, whatever else is on its line; the list
// of commands is read from `storefront --help` itself, so a command added later is covered.

test('storefront --help lists the commands, and each answers --help', async () => {
  const index = await runCli(['--help']);
  assert.equal(index.code, 0);
  assert.equal(index.stderr, '');
  assert.match(index.stdout, /^usage: storefront <command>/);
  const commands = [...index.stdout.matchAll(/^ {2}([a-z]+(?: [a-z]+)?) {2,}\S/gm)].map((m) => m[1]);
  assert.ok(commands.includes('generate') && commands.includes('key create'), index.stdout);
  // Three processes at a time: each loads the whole CLI, and the machine may be busy.
  const forms = [...commands.map((c) => [...c.split(' '), '--help']), ['help', 'key', 'list']];
  for (let i = 0; i < forms.length; i += 3)
    await Promise.all(
      forms.slice(i, i + 3).map(async (form) => {
        const r = await runCli(form, { DATABASE_URL: 'mysql://never-opened' }, 120_000);
        const command = form.filter((w) => w !== 'help' && w !== '--help').join(' ');
        assert.equal(r.code, 0, `${form.join(' ')}: ${r.stderr}`);
        assert.equal(r.stderr, '', form.join(' '));
        assert.ok(r.stdout.startsWith(`usage: storefront ${command}`), `${form.join(' ')}:\n${r.stdout}`);
        assert.match(r.stdout, /--database <url>/);
      }),
    );
});

test('--help wins over the other arguments and needs none of them', async () => {
  const r = await runCli(['generate', '--products', 'many', '-h']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^usage: storefront generate <project_id> \[--products N\] \[--orders N\] \[--users N\]/);
  assert.match(r.stdout, /--products N +products to add/);
  const create = await runCli(['project', 'create', '--help']);
  assert.match(create.stdout, /--name <text> --currency <ISO 4217> \[--database <url>\]/);
});

test('a command with subcommands lists them', async () => {
  for (const group of ['key', 'project']) {
    const r = await runCli([group, '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, new RegExp(`^usage: storefront ${group} <subcommand>`));
    assert.match(r.stdout, new RegExp(`^ {2}${group} create `, 'm'));
  }
});

test('no command is a usage error: the list goes to stderr, exit 2', async () => {
  const r = await runCli([]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^usage: storefront <command>/);
});
