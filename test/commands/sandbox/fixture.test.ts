import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, tempDir, type CliResult } from '../../helpers.js';

/**
 * `edp sandbox --fixture FILE`: started with the fixture's agency, refused (exit 2, nothing
 * started) for a fixture that is not valid and beside the flags that choose the demo data.
 */

const dir = tempDir();
afterAll(dir.remove);
const file = (name: string, text: string) => {
  const path = join(dir.dir, name);
  writeFileSync(path, text);
  return path;
};
const GOOD = file(
  'fixture.yaml',
  ['agency: {username: chief@acme.test, password: fixture-secret}', 'workspaces:', '  - {id: 150, title: Acme}'].join(
    '\n',
  ),
);

/** Runs `edp sandbox ARGS` until it listens, then `body` with its URL, then stops it. */
async function running(args: string[], body: (url: string) => Promise<void>): Promise<CliResult> {
  const stop = new AbortController();
  let url: string | undefined;
  let done: Promise<void> | undefined;
  const r = await cli(undefined, ['sandbox', '--port', '0', ...args], {
    signal: stop.signal,
    onStdout: (out) => {
      url ??= /Sandbox listening on (\S+)/.exec(out)?.[1];
      if (url && !done) done = body(url).finally(() => stop.abort());
    },
  });
  await done;
  return r;
}

describe('edp sandbox --fixture', () => {
  it("starts with the fixture's agency and prints its chief's credentials", async () => {
    let listed: unknown;
    const r = await running(['--fixture', GOOD], async (url) => {
      const w = await cli({ url }, ['workspaces', 'list', '--json'], {
        env: { EDP_USERNAME: 'chief@acme.test', EDP_PASSWORD: 'fixture-secret' },
      });
      listed = w.json();
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Username: chief@acme.test\nPassword: fixture-secret\n');
    expect(listed).toEqual([expect.objectContaining({ id: 150, title: 'Acme' })]);
  });

  it('refuses a fixture that is not valid, each problem at its line and column (exit 2)', async () => {
    const bad = file(
      'bad.yaml',
      ['agency: {username: chief@acme.test, password: x}', 'workspaces:', '  - title: Acme', '    conections: []'].join(
        '\n',
      ),
    );
    const r = await cli(undefined, ['sandbox', '--port', '0', '--fixture', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `--fixture ${bad} is not a valid sandbox fixture:\n  ${bad}:4:5: workspaces[0].conections: unknown key`,
    );
    expect(r.stderr).toContain('did you mean "connections"?');
    expect(r.stdout).toBe('');
  });

  it('refuses the flags of the demo data beside it, and a --state file that holds a state, naming both flags', async () => {
    const state = file('state.json', '{"version": 1}');
    for (const [argv, message] of [
      [['--seed', '3'], '--fixture and --seed do not go together'],
      [['--username', 'a@b.test'], '--fixture and --username do not go together'],
      [['--scale', '2'], '--fixture and --scale do not go together'],
      [['--state', state], `--fixture and --state ${state} do not go together: that file already holds a state`],
      [['--from', GOOD], '--fixture and --from each set what the sandbox starts with; give one of them'],
    ] as const) {
      const r = await cli(undefined, ['sandbox', '--port', '0', '--fixture', GOOD, ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe('');
    }
  });

  it('starts from the fixture with a --state file not yet made, and keeps the state there', async () => {
    const state = join(dir.dir, 'new-state.json');
    const r = await running(['--fixture', GOOD, '--state', state], async (url) => {
      const made = await cli({ url }, ['workspaces', 'create', '--title', 'Made'], {
        env: { EDP_USERNAME: 'chief@acme.test', EDP_PASSWORD: 'fixture-secret' },
      });
      expect(made.code, made.stderr).toBe(0);
    });
    expect(r.code, r.stderr).toBe(0);
    const titles = JSON.parse(readFileSync(state, 'utf8')).workspaces.map((w: { title: string }) => w.title);
    expect(titles).toEqual(['Acme', 'Made']);
  });
});
