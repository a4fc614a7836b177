import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, freshConfig, PASSWORD, USERNAME } from '../helpers.js';

describe('edp itself', () => {
  it('prints help with exit 0, with and without --help', async () => {
    for (const argv of [['--help'], []]) {
      const r = await cli(undefined, argv);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Usage: edp');
      expect(r.stdout).toContain('workspaces');
      expect(r.stdout).toContain('Exit codes');
    }
    const sub = await cli(undefined, ['workspaces', 'create', '--help']);
    expect(sub.stdout).toContain('--title');
  });

  it('rejects unknown commands and flags with exit 2, naming them', async () => {
    const cmd = await cli(undefined, ['workspace', 'list']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toContain("unknown command 'workspace'");
    const flag = await cli(undefined, ['workspaces', 'list', '--bogus']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--bogus'");
    const missing = await cli(undefined, ['workspaces', 'create']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--title');
  });

  it('refuses a bad --timeout, --base-url or --workspace before sending (exit 2)', async () => {
    expect((await cli({ url: 'http://127.0.0.1:9' }, ['workspaces', 'list', '--timeout', 'soon'])).stderr).toContain(
      '--timeout',
    );
    // The message names where the bad value came from: the flag or the variable.
    expect((await cli({ url: 'ftp://x' }, ['workspaces', 'list'])).stderr).toContain(
      'EDP_BASE_URL must be an http(s) URL',
    );
    expect(
      (await cli({ url: 'http://127.0.0.1:9' }, ['workspaces', 'list', '--base-url', 'ftp://x'])).stderr,
    ).toContain('--base-url must be an http(s) URL');
    expect((await cli({ url: 'http://127.0.0.1:9' }, ['-w', '1x', 'token'])).code).toBe(2);
  });

  it('bad input of a workspace command writes no config file, even with credentials from the environment', async () => {
    const config = freshConfig();
    const env = { ...config.env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD, EDP_BASE_URL: 'http://127.0.0.1:9' };
    const r = await cli(undefined, ['-w', '101', 'webhooks', 'create', '--url', 'not a url', '--events', 'x'], { env });
    expect(r.code).toBe(2);
    expect(existsSync(config.file)).toBe(false);
  });

  it('reports an unreachable service as exit 1, naming its address but never its credentials', async () => {
    const r = await cli({ url: 'http://127.0.0.1:9' }, ['workspaces', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('connection refused by http://127.0.0.1:9: is the service running there?');
    // The advice is said once, in the hint.
    expect(r.stderr.split('EDP_BASE_URL')).toHaveLength(2);
    expect(r.stderr).toContain('hint: check the service address: pass --base-url URL or set EDP_BASE_URL');
    const secret = await cli({ url: 'http://user:hunter2@127.0.0.1:9' }, ['workspaces', 'list']);
    expect(secret.stderr).toContain('connection refused by http://127.0.0.1:9');
    expect(secret.stderr).not.toContain('hunter2');
  });

  it('a command that needs a workspace says every way to name one', async () => {
    const config = freshConfig();
    const r = await cli(undefined, ['recipes', 'list'], {
      env: { ...config.env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD, EDP_WORKSPACE: undefined },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-w/--workspace ID');
    expect(r.stderr).toContain('EDP_WORKSPACE');
    expect(r.stderr).toContain('edp config set workspace ID');
  });

  it('prints completion scripts for bash, zsh and fish', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await cli(undefined, ['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('edp __complete');
    }
    expect((await cli(undefined, ['completion', 'tcsh'])).code).toBe(2);
  });
});

describe('loading only the invoked area', () => {
  it('finds the command word behind global options', async () => {
    const { commandWord } = await import('../../src/commands/index.js');
    expect(commandWord(['-w', '101', '--json', 'recipes', 'list'])).toBe('recipes');
    expect(commandWord(['--profile', 'ops', '--base-url', 'http://x', 'workspaces'])).toBe('workspaces');
    expect(commandWord(['help', 'accounts'])).toBe('accounts');
    expect(commandWord(['--help'])).toBeUndefined();
  });

  it('shows the full help of a noun with `edp help NOUN`', async () => {
    const r = await cli(undefined, ['help', 'workspaces']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('enable-recipe');
  });
});
