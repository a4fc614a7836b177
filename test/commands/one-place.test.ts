import { readFileSync } from 'node:fs';
import { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../src/commands/index.js';
import type { App } from '../../src/commands/shared/app.js';
import { EXIT_CODES } from '../../src/errors.js';
import { CONTEXT_OPTIONS, GLOBAL_OPTIONS, VALUE_OPTIONS } from '../../src/global-options.js';
import { cli } from '../helpers.js';

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
});
