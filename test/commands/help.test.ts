import { Writable } from 'node:stream';
import { PassThrough } from 'node:stream';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { App } from '../../src/commands/shared/app.js';
import { cli } from '../helpers.js';

/** Every verb of the whole tree, with its help text as `--help` prints it. */
async function everyVerb(): Promise<Array<{ path: string; help: string }>> {
  let written = '';
  const stdout = new Writable({
    write(chunk, _enc, done) {
      written += String(chunk);
      done();
    },
  });
  const app = new App({ stdin: new PassThrough(), stdout, stderr: stdout, env: {} });
  const program = await buildProgram(app, [], true);
  const verbs: Array<{ path: string; help: string }> = [];
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      // hidden commands (the completion helper) are not for people
      if ((sub as unknown as { _hidden?: boolean })._hidden) continue;
      const here = [...path, sub.name()];
      if (sub.commands.length > 0) walk(sub, here);
      else if (sub.name() !== 'help') {
        written = '';
        sub.outputHelp();
        verbs.push({ path: here.join(' '), help: written });
      }
    }
  };
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
});
