import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { registerCommands } from '../../src/commands/index.js';
import { App } from '../../src/commands/shared/app.js';
import { SHARED_FLAGS, isSharedFlag } from '../../src/commands/shared/flags.js';
import { EXIT_CODES } from '../../src/errors.js';
import { CONTEXT_OPTIONS, GLOBAL_OPTIONS, VALUE_OPTIONS } from '../../src/global-options.js';
import { cli, parse } from '../helpers.js';

/** Facts the tool states in several places, each kept in one. */
describe('one place for each fact', () => {
  it("a command's description is the command tree's, whether or not its verbs are loaded", async () => {
    const app = { verb: (c: unknown) => c } as unknown as App;
    const names = new Command('edp');
    await registerCommands(names, app, [], false);
    const loaded = new Command('edp');
    await registerCommands(loaded, app, [], true);
    const of = (p: Command) => p.commands.map((c) => [c.name(), c.description()]);
    expect(of(loaded)).toEqual(of(names));
    expect(names.commands.length).toBeGreaterThan(20);
  });

  it("the exit codes of `edp --help` and of the README's table are the table in errors.ts", async () => {
    const help = (await cli(undefined, ['--help'])).stdout.replace(/\s+/g, ' ');
    for (const e of EXIT_CODES) expect(help).toContain(`${e.code} ${e.short}`);
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Errors and exit codes'));
    const rows = [...section.matchAll(/^\| (\d+) \| (.*) \|$/gm)].map((m) => [Number(m[1]), m[2]]);
    expect(rows).toEqual(EXIT_CODES.map((e) => [e.code, e.long]));
  });

  it('the global options are the table in global-options.ts, everywhere they are read', async () => {
    const help = (await cli(undefined, ['--help'])).stdout;
    for (const o of GLOBAL_OPTIONS) expect(help).toContain(o.flags);
    // A verb's help lists them too, and the command word is found behind those taking a value.
    const verb = (await cli(undefined, ['workspaces', 'list', '--help'])).stdout;
    for (const o of GLOBAL_OPTIONS) expect(verb).toContain(o.flags);
    expect([...VALUE_OPTIONS].sort()).toEqual(['--base-url', '--jq', '--profile', '--timeout', '--workspace', '-w']);
    expect(CONTEXT_OPTIONS).toEqual({
      '--profile': 'profile',
      '--base-url': 'baseUrl',
      '-w': 'workspace',
      '--workspace': 'workspace',
      '--timeout': 'timeout',
    });
  });

  it('a flag several verbs take is declared once (shared/flags.ts): every verb taking it has that declaration', async () => {
    const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
    const program = await buildProgram(new App(io), [], true);
    const takers = new Map<string, string[]>(SHARED_FLAGS.map((f) => [f, []]));
    const walk = (cmd: CommandUnknownOpts, path: string[]) => {
      for (const o of cmd.options) {
        const name = o.long ?? '';
        if (!takers.has(name)) continue;
        expect(isSharedFlag(o), `${path.join(' ')} declares ${name} itself`).toBe(true);
        takers.get(name)!.push(path.join(' '));
      }
      for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
    };
    walk(program, []);
    expect(Object.fromEntries(takers)).toEqual({
      '--wait-timeout': expect.arrayContaining(['apply', 'extracts run', 'recipes build', 'recipes status']),
      '--poll-interval': expect.arrayContaining(['apply', 'loads run', 'recipes deploy', 'recipes poll']),
      '--concurrency': expect.arrayContaining([
        'apply',
        'doctor',
        'export',
        'plan',
        'recipes deploy',
        'recipes status',
      ]),
      '--all-workspaces': expect.arrayContaining(['doctor', 'export', 'recipes deploy', 'recipes status']),
      '--yes': expect.arrayContaining(['apply', 'recipes delete', 'roles update']),
      '--secrets-file': ['webhooks create', 'webhooks rotate-secret', 'webhooks listen', 'apply'],
      '--failed': expect.arrayContaining(['extracts run', 'loads pause', 'recipes resetup', 'accounts disable']),
    });
  });

  it("a verb's own options reach it as its options; its context gets the global options alone", async () => {
    const r = await parse(['recipes', 'status', '-w', '101', '--concurrency', '3', '--poll-interval', '5s']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.parsed?.opts).toMatchObject({ concurrency: '3', pollInterval: '5s' });
    expect(r.parsed?.globals).toMatchObject({ workspace: '101' });
    const keys: string[] = GLOBAL_OPTIONS.map((o) => o.key);
    expect(Object.keys(r.parsed!.globals).filter((k) => !keys.includes(k))).toEqual([]);
  });
});
