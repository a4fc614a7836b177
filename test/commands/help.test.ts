import { Writable } from 'node:stream';
import { PassThrough } from 'node:stream';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { App } from '../../src/commands/shared/app.js';
import { cli } from '../helpers.js';

/**
 * Every verb of the whole tree, with its help text as `--help` prints it (at a terminal that
 * wide, with `columns`); with `groups`, the program and each group too.
 */
async function everyVerb(columns?: number, groups = false): Promise<Array<{ path: string; help: string }>> {
  let written = '';
  const stdout = new Writable({
    write(chunk, _enc, done) {
      written += String(chunk);
      done();
    },
  });
  if (columns) Object.assign(stdout, { isTTY: true, columns });
  const app = new App({ stdin: new PassThrough(), stdout, stderr: stdout, env: {} });
  const program = await buildProgram(app, [], true);
  const verbs: Array<{ path: string; help: string }> = [];
  const help = (cmd: Command, path: string[]) => {
    written = '';
    cmd.outputHelp();
    verbs.push({ path: path.join(' '), help: written });
  };
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      // hidden commands (the completion helper) are not for people
      if ((sub as unknown as { _hidden?: boolean })._hidden) continue;
      const here = [...path, sub.name()];
      if (sub.commands.length > 0) {
        if (groups) help(sub, here);
        walk(sub, here);
      } else if (sub.name() !== 'help') help(sub, here);
    }
  };
  if (groups) help(program, []);
  walk(program, []);
  return verbs;
}

describe('help', () => {
  it('every verb of the tree has examples under one label, and lists the global options', async () => {
    const verbs = await everyVerb();
    expect(verbs.length).toBeGreaterThan(80);
    const withoutExamples = verbs.filter((v) => !/\nExamples:\n {2}\S/.test(v.help)).map((v) => v.path);
    expect(withoutExamples).toEqual([]);
    const otherLabel = verbs.filter((v) => /\nExample:/.test(v.help)).map((v) => v.path);
    expect(otherLabel).toEqual([]);
    const withoutGlobals = verbs
      .filter(
        (v) =>
          !v.help.includes('Global Options:') || !v.help.includes('--workspace <id>') || !v.help.includes('--quiet'),
      )
      .map((v) => v.path);
    expect(withoutGlobals).toEqual([]);
    // each example names the command it is the example of
    const offTopic = verbs
      .filter((v) => {
        const lines = v.help
          .split('\nExamples:\n')[1]!
          .split('\n\n')[0]!
          .split('\n')
          .filter((l) => /^ {2}\S/.test(l));
        return !lines.some((l) => l.includes(v.path.split(' ').pop()!) || l.includes(v.path));
      })
      .map((v) => v.path);
    expect(offTopic).toEqual([]);
  });

  it("`edp help NOUN VERB` shows that verb's help on stdout with exit 0, piped and at a terminal", async () => {
    for (const tty of [false, true]) {
      const r = await cli(undefined, ['help', 'recipes', 'deploy'], { tty });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('Usage: edp recipes deploy [options]');
      expect(r.stdout).toContain('--data-source <name>');
      expect(r.stdout).toContain('Examples:');
      expect(r.stdout).toContain('Global Options:');
      const deep = await cli(undefined, ['help', 'destinations', 'connections', 'create'], { tty });
      expect(deep.code).toBe(0);
      expect(deep.stdout).toContain('Usage: edp destinations connections create');
    }
  });

  it('the same help for `edp help N V`, `edp N V --help` and `edp N help V`', async () => {
    const a = await cli(undefined, ['help', 'workspaces', 'list']);
    const b = await cli(undefined, ['workspaces', 'list', '--help']);
    const c = await cli(undefined, ['workspaces', 'help', 'list']);
    expect(a.stdout).toContain('Usage: edp workspaces list');
    expect(b.stdout).toBe(a.stdout);
    expect(c.stdout).toBe(a.stdout);
    expect([a.code, b.code, c.code]).toEqual([0, 0, 0]);
  });

  it('edp help with an unknown command: one message, one hint, exit 2', async () => {
    const r = await cli(undefined, ['help', 'foo']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(["error: unknown command 'foo'; run `edp --help` for the commands"]);
  });

  it('webhooks listen --help says what --forward-to does: it forwards before answering the service', async () => {
    const r = await cli(undefined, ['webhooks', 'listen', '--help']);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('before answering the service');
    expect(text).not.toContain('after acknowledging');
  });

  it('a group without its verb shows the group help on stdout with exit 0', async () => {
    for (const argv of [['recipes'], ['help', 'recipes'], ['recipes', '--help'], ['destinations', 'connections']]) {
      const r = await cli(undefined, argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout).toContain('Commands:');
      expect(r.stderr).toBe('');
    }
  });

  it('`edp help` of an unknown command is a usage error naming the words', async () => {
    const r = await cli(undefined, ['help', 'recipes', 'bogus']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("unknown command 'recipes bogus'");
  });

  it('group help lists the verbs first and the global options last, then the examples and notes', async () => {
    for (const argv of [['recipes'], ['recipes', '--help'], ['help', 'recipes'], ['recipes', 'help']]) {
      const r = await cli(undefined, argv);
      expect(r.code, argv.join(' ')).toBe(0);
      const at = (heading: string) => r.stdout.indexOf(`\n${heading}\n`);
      expect(at('Commands:'), argv.join(' ')).toBeGreaterThan(0);
      expect(at('Commands:')).toBeLessThan(at('Global Options:'));
      expect(r.stdout).toMatch(/^ {2}deploy \[options\] /m);
      expect(r.stdout.slice(at('Global Options:'))).toContain('--workspace <id>');
      // the group's help command is not one of its verbs
      expect(r.stdout).not.toMatch(/^ {2}help /m);
    }
    const group = await cli(undefined, ['config', '--help']);
    const at = (heading: string) => group.stdout.indexOf(heading);
    expect(at('\nCommands:\n')).toBeLessThan(at('\nGlobal Options:\n'));
    expect(at('\nGlobal Options:\n')).toBeLessThan(at('\nSettings '));
    expect(at('\nSettings ')).toBeLessThan(at('\nExamples:\n'));
  });

  it("a verb's help: its own options, then the global options and --help, then the examples", async () => {
    const r = await cli(undefined, ['recipes', 'deploy', '--help']);
    const at = (heading: string) => r.stdout.indexOf(`\n${heading}\n`);
    expect(at('Options:')).toBeGreaterThan(0);
    expect(at('Options:')).toBeLessThan(at('Global Options:'));
    expect(at('Global Options:')).toBeLessThan(at('Examples:'));
    const own = r.stdout.slice(at('Options:'), at('Global Options:'));
    expect(own).toContain('--data-source <name>');
    expect(own).not.toContain('--help');
    expect(r.stdout.slice(at('Global Options:'), at('Examples:'))).toMatch(/^ {2}-h, --help +display help/m);
  });

  /**
   * Lines wider than `width`, but for those that are one word wider than what is left of the line
   * (a flag, an address, a quoted argument of an example, with the ` \\` that continues it).
   */
  const tooWide = (text: string, width: number) =>
    text.split('\n').filter(
      (l) =>
        l.length > width &&
        /\s/.test(
          l
            .trim()
            .replace(/ \\$/, '')
            .replace(/"[^"]*"/g, 'x'),
        ),
    );

  it('help fits 80 columns piped and the width of a 40-column terminal, wrapped between words', async () => {
    for (const argv of [['--help'], ['recipes', '--help'], ['recipes', 'deploy', '--help']]) {
      const piped = await cli(undefined, argv);
      expect(piped.code).toBe(0);
      expect(
        piped.stdout.split('\n').filter((l) => l.length > 80),
        argv.join(' '),
      ).toEqual([]);
      const narrow = await cli(undefined, argv, { tty: true, columns: 40 });
      expect(narrow.code).toBe(0);
      expect(tooWide(narrow.stdout, 40), argv.join(' ')).toEqual([]);
      // every word is still there, in the same order
      const words = (s: string) => s.replace(/ \\\n/g, ' ').split(/\s+/).filter(Boolean);
      expect(words(narrow.stdout)).toEqual(words(piped.stdout));
    }
    const wide = await cli(undefined, ['recipes', 'deploy', '--help'], { tty: true, columns: 200 });
    // a paragraph is one line when the terminal is wide enough
    expect(wide.stdout).toMatch(/^Re-running is safe: .{120,}$/m);
    expect(wide.stdout).toMatch(/^ {2}edp recipes deploy -w 101,102,103 .* --concurrency 3 --json$/m);
  });

  it('the exit codes of `edp --help` are wrapped at the width, each code on the line of its meaning', async () => {
    for (const columns of [40, 80, 200]) {
      const r = await cli(undefined, ['--help'], { tty: true, columns });
      const exit = r.stdout.slice(r.stdout.indexOf('Exit codes:')).split('\nRun ')[0]!;
      expect(tooWide(exit, columns)).toEqual([]);
      expect(exit).not.toMatch(/\d\n/);
      expect(exit.replace(/\s+/g, ' ')).toContain(
        '10 plan found changes (--detailed-exitcode), 11 confirmation declined',
      );
    }
  });

  it('every help of the tree fits 80 columns piped, and a 40-column terminal but for single long words', async () => {
    const piped = await everyVerb(undefined, true);
    expect(piped.filter((v) => v.help.split('\n').some((l) => l.length > 80)).map((v) => v.path)).toEqual([]);
    const narrow = await everyVerb(40, true);
    expect(narrow.filter((v) => tooWide(v.help, 40).length > 0).map((v) => v.path)).toEqual([]);
  });

  it('an unknown help topic is a usage error (exit 2) naming the words, wherever `help` is asked', async () => {
    for (const [argv, named, hint] of [
      [['recipes', 'help', 'nope'], 'recipes nope', 'edp recipes --help'],
      [['help', 'recipes', 'nope'], 'recipes nope', 'edp recipes --help'],
      [['help', 'recipes', 'deploy', 'nope'], 'recipes deploy nope', 'edp recipes deploy --help'],
      [
        ['destinations', 'connections', 'help', 'nope'],
        'destinations connections nope',
        'edp destinations connections --help',
      ],
      [['help', 'nope'], 'nope', 'edp --help'],
    ] as const) {
      const r = await cli(undefined, [...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toEqual([
        `error: unknown command '${named}'; run \`${hint}\` for the commands`,
      ]);
    }
    const json = await cli(undefined, ['recipes', 'help', 'nope', '--json']);
    expect(json.code).toBe(2);
    expect(json.errorJson().error.code).toBe('usage_error');
  });

  it('`edp N help V` shows the verb, and `edp N help` the group', async () => {
    const verb = await cli(undefined, ['recipes', 'help', 'deploy']);
    expect(verb.code).toBe(0);
    expect(verb.stdout).toBe((await cli(undefined, ['recipes', 'deploy', '--help'])).stdout);
    const group = await cli(undefined, ['recipes', 'help']);
    expect(group.code).toBe(0);
    expect(group.stdout).toBe((await cli(undefined, ['recipes', '--help'])).stdout);
  });
});
