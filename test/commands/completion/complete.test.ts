import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { Command } from '@commander-js/extra-typings';
import { buildProgram } from '../../../src/cli.js';
import { App } from '../../../src/commands/shared/app.js';
import { completeStatic, optionPaths } from '../../../src/commands/completion/shared/complete.js';
import { processIO } from '../../../src/output/io.js';
import { cli, control, sandbox } from '../../helpers.js';
import { resetRecipes } from '../../fixtures/recipes.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

/** `edp __complete WORD…`: the candidates (values only) and the directive. */
async function ask(
  words: string[],
  env: Record<string, string | undefined> = {},
  target: Sandbox | { url: string } | undefined = sb,
) {
  const r = await cli(target, ['__complete', ...words], { env });
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  return {
    values: lines.slice(0, -1).map((l) => l.split('\t')[0]),
    lines: lines.slice(0, -1),
    directive: lines[lines.length - 1],
    stderr: r.stderr,
  };
}

describe('edp __complete', () => {
  it("offers nouns at the top, verbs per noun, and only that noun's verbs", async () => {
    const top = await ask(['']);
    expect(top.values).toEqual(expect.arrayContaining(['workspaces', 'recipes', 'config', 'completion']));
    expect(top.values).not.toContain('__complete');
    expect(top.directive).toBe(':nofiles');
    expect((await ask(['rec'])).values).toEqual(['recipes']);
    const verbs = await ask(['config', '']);
    expect(verbs.values).toEqual(['get', 'set', 'unset', 'list']);
    expect(verbs.lines[0]).toMatch(/^get\tprint the value in effect/);
    // verbs of another noun are not offered
    expect((await ask(['workspaces', ''])).values).not.toContain('deploy');
  });

  it('offers every command of `edp --help` and, for each, every verb its own help lists', async () => {
    // The help of one command registers that command alone; completion registers the whole tree.
    const listed = (help: string) =>
      help
        .split('\nCommands:\n')[1]!
        .split('\n\n')[0]!
        .split('\n')
        .map((l) => /^ {2}(\S+)/.exec(l)?.[1])
        .filter((name): name is string => name !== undefined && name !== 'help');
    const commands = listed((await cli(undefined, ['--help'])).stdout);
    expect(commands.length).toBeGreaterThan(20);
    expect((await ask([''])).values).toEqual(commands);
    for (const command of commands) {
      const help = (await cli(undefined, [command, '--help'])).stdout;
      if (help.includes('\nCommands:\n')) expect((await ask([command, ''])).values, command).toEqual(listed(help));
    }
  });

  it("offers the verb's own flags and the global ones, with descriptions", async () => {
    const r = await ask(['recipes', 'deploy', '--']);
    expect(r.values).toEqual(
      expect.arrayContaining(['--concurrency', '--file', '--all-workspaces', '--json', '--jq', '--profile']),
    );
    expect(r.values).not.toContain('--offline');
    expect(r.lines).toContainEqual(expect.stringMatching(/^--concurrency\t/));
    const status = await ask(['auth', 'status', '--']);
    expect(status.values).toEqual(expect.arrayContaining(['--offline', '--all']));
    expect(status.values).not.toContain('--concurrency');
  });

  it('offers no flags or verbs where a value is due, and file names after a file flag', async () => {
    expect(await ask(['recipes', 'deploy', '--concurrency', ''])).toMatchObject({ values: [], directive: ':nofiles' });
    for (const words of [
      ['recipes', 'deploy', '--file', ''],
      ['recipes', 'deploy', '-f', 'dep'],
      ['extracts', 'create', '--settings-file', ''],
      ['api', 'POST', '/api/v3/workspaces', '--input', ''],
      ['plan', '-f', 'fl'],
      ['plan', '--out', ''],
      ['plan', '--out=a'],
      ['apply', 'a-'],
      ['apply', '--secrets-file', ''],
      ['export', '--output', ''],
      ['sandbox', '--state', ''],
      // bash passes `--out=a` as `--out`, `=`, `a`
      ['plan', '--out', '=', 'a'],
      ['plan', '--out', '='],
    ]) {
      expect((await ask(words)).directive, words.join(' ')).toBe(':files');
    }
    // a value named otherwise is not a file: api's path is the service's, -f there a field
    for (const words of [
      ['api', 'GET', ''],
      ['api', 'POST', '/api/v3/workspaces', '-f', ''],
      ['recipes', 'list', '--state', ''],
      ['destinations', 'connections', 'create', '--filename', ''],
    ]) {
      expect((await ask(words)).directive, words.join(' ')).toBe(':nofiles');
    }
    // a value flag's value is skipped: what follows is the next word
    expect((await ask(['-w', '101', 'config', ''])).values).toEqual(['get', 'set', 'unset', 'list']);
  });

  it('offers the choices of an enumerated value', async () => {
    expect((await ask(['completion', ''])).values).toEqual(['bash', 'zsh', 'fish']);
    expect((await ask(['config', 'set', 'po'])).values).toEqual(['poll_interval']);
    expect((await ask(['config', 'get', ''])).values).toEqual([
      'workspace',
      'base_url',
      'concurrency',
      'poll_interval',
    ]);
    expect((await ask(['config', 'set', 'concurrency', ''])).values).toEqual(['auto']);
    // No value is known for an address: nothing offered, not the keys again.
    expect((await ask(['config', 'set', 'base_url', ''])).values).toEqual([]);
  });

  it('config set workspace <TAB> offers the workspace ids from the service', async () => {
    const r = await ask(['config', 'set', 'workspace', '']);
    expect(r.values).toEqual(expect.arrayContaining(['101', '102', '103']));
    expect(r.lines).toContainEqual(expect.stringMatching(/^101\t\S/));
  });

  it('offers workspace ids, data source names and recipe ids from the service', async () => {
    const ws = await ask(['datasources', 'list', '-w', '']);
    expect(ws.values).toEqual(expect.arrayContaining(['101', '102']));
    expect(ws.lines).toContainEqual(expect.stringMatching(/^101\t\S/));
    const ds = await ask(['-w', '101', 'connections', 'list', '--data-source', 'goo']);
    expect(ds.values).toContain('google_ads');
    expect(ds.values.every((v) => v.startsWith('goo'))).toBe(true);
    resetRecipes(sb);
    await control(sb, 'PATCH', '/agency', { recipe_pipeline: true });
    const created = await cli(sb, [
      'recipes',
      'create',
      '-w',
      '101',
      '--template',
      '4001',
      '--title',
      'Paid media',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const recipes = await ask(['recipes', 'get', '-w', '101', '']);
    expect(recipes.values).toEqual(['9007199254740993']);
    expect(recipes.lines).toEqual(['9007199254740993\tPaid media']);
  });

  it('is silent and quick to give up when the service cannot answer', async () => {
    const noService = await ask(['datasources', 'list', '-w', ''], {}, { url: 'http://127.0.0.1:9' });
    expect(noService).toMatchObject({ values: [], directive: ':nofiles', stderr: '' });
    const noWorkspace = await ask(['connections', 'list', '--data-source', ''], { EDP_WORKSPACE: undefined });
    expect(noWorkspace).toMatchObject({ values: [], stderr: '' });
  });
});

describe('which values are files, from the command tree', () => {
  // A value is a file when its name in the tree says so (`--out <file>`, `[plan-file]`): every
  // option and argument is asked here, as a Tab after it would ask.
  async function fileValues() {
    const program = await buildProgram(new App(processIO()), ['__complete'], true);
    const files: string[] = [];
    const described: string[] = [];
    const walk = (cmd: typeof program, path: string[]) => {
      for (const o of cmd.options) {
        if (o.hidden || !(o.required || o.optional)) continue;
        const name = `${[...path, o.long ?? o.short].join(' ')}`;
        const { completion } = completeStatic(program, [...path, o.long ?? o.short!, '']);
        if (completion.paths === 'files') files.push(name);
        // what its description says it reads or writes
        if (/\b(?:from|to|this|the \w+) file\b|\bFILE\b|YAML/.test(o.description)) described.push(name);
      }
      cmd.registeredArguments.forEach((a, i) => {
        const { completion } = completeStatic(program, [...path, ...Array<string>(i).fill('x'), '']);
        if (completion.paths === 'files') files.push(`${path.join(' ')} ${a.name()}`);
      });
      for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
    };
    walk(program, []);
    return { files, described };
  }

  it('offers file names for every value named as a file, and names every file so', async () => {
    const { files, described } = await fileValues();
    expect(files).toEqual(
      expect.arrayContaining([
        'apply plan-file',
        'apply --file',
        'apply --secrets-file',
        'plan --file',
        'plan --out',
        'export --output',
        'recipes deploy --file',
        'extracts create --settings-file',
        'api --input',
        'sandbox --state',
        'webhooks listen --secrets-file',
      ]),
    );
    // a value whose description speaks of a file but whose name does not say so would be missed
    expect(described.filter((name) => !files.includes(name))).toEqual([]);
    expect(described.length).toBeGreaterThan(5);
    for (const notFile of [
      'api path',
      'api --field',
      'recipes list --state',
      'destinations connections create --filename',
    ])
      expect(files).not.toContain(notFile);
  });

  it('takes a folder where the value is named dir, and any name ending in -file or -path', () => {
    const program = new Command('edp');
    program
      .command('build')
      .argument('[out-dir]')
      .option('--cache-dir <dir>')
      .option('--key-file <key-file>')
      .option('--log <path>')
      .option('--name <name>');
    const paths = (words: string[]) => completeStatic(program, words).completion.paths;
    expect(paths(['build', '--cache-dir', ''])).toBe('dirs');
    expect(paths(['build', '--cache-dir=c'])).toBe('dirs');
    expect(paths(['build', ''])).toBe('dirs');
    expect(paths(['build', '--key-file', ''])).toBe('files');
    expect(paths(['build', '--log', ''])).toBe('files');
    expect(paths(['build', '--name', ''])).toBeUndefined();
    expect(program.commands[0]!.options.map(optionPaths)).toEqual(['dirs', 'files', 'files', undefined]);
  });
});
