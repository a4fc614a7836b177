import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, PASSWORD, sandbox, tempDir, USERNAME } from '../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

/** A fresh config dir, no service address and no workspace from the environment. */
function fresh() {
  const dir = tempDir();
  const env: Record<string, string | undefined> = { EDP_CONFIG_DIR: dir.dir, EDP_BASE_URL: undefined, EDP_WORKSPACE: undefined };
  return { env, file: join(dir.dir, 'config.json'), read: () => JSON.parse(readFileSync(join(dir.dir, 'config.json'), 'utf8')) };
}

describe('edp config', () => {
  it('sets, gets and unsets each setting in the profile, keeping its credentials', async () => {
    const { env, file, read } = fresh();
    writeFileSync(file, JSON.stringify({ profiles: { default: { username: USERNAME, password: PASSWORD } } }));
    for (const [key, value] of [['workspace', '101'], ['base_url', 'https://edp.example.com'], ['concurrency', '8'], ['poll_interval', '5s']]) {
      const set = await cli(undefined, ['config', 'set', key!, value!], { env });
      expect(set.code, set.stderr).toBe(0);
      expect(set.stderr).toContain(`Set ${key} to ${value} in profile "default"`);
      const got = await cli(undefined, ['config', 'get', key!], { env });
      expect(got.stdout).toBe(`${value}\n`);
    }
    expect(read().profiles.default).toEqual({ username: USERNAME, password: PASSWORD, workspace: '101', base_url: 'https://edp.example.com', concurrency: 8, poll_interval: '5s' });
    const unset = await cli(undefined, ['config', 'unset', 'concurrency'], { env });
    expect(unset.code).toBe(0);
    expect(read().profiles.default.concurrency).toBeUndefined();
    const back = await cli(undefined, ['config', 'get', 'concurrency', '--json'], { env });
    expect(back.json()).toEqual({ key: 'concurrency', value: 'auto', source: 'default' });
  });

  it('keeps settings per profile', async () => {
    const { env, read } = fresh();
    await cli(undefined, ['--profile', 'staging', 'config', 'set', 'workspace', '202'], { env });
    expect(read().profiles).toEqual({ staging: { workspace: '202' } });
    const other = await cli(undefined, ['config', 'get', 'workspace'], { env });
    expect(other.stdout).toBe('');
    expect(other.stderr).toContain('workspace is not set');
    const staging = await cli(undefined, ['config', 'get', 'workspace'], { env: { ...env, EDP_PROFILE: 'staging' } });
    expect(staging.stdout).toBe('202\n');
  });

  it('resolves flag, then environment, then profile, then default, and says which', async () => {
    const { env } = fresh();
    await cli(undefined, ['config', 'set', 'base_url', 'https://profile.example.com'], { env });
    await cli(undefined, ['config', 'set', 'workspace', '101'], { env });
    const list = async (argv: string[], extra: Record<string, string> = {}) =>
      (await cli(undefined, [...argv, 'config', 'list', '--json'], { env: { ...env, ...extra } })).json();
    expect(await list([])).toEqual({
      workspace: { value: '101', source: 'profile' },
      base_url: { value: 'https://profile.example.com', source: 'profile' },
      concurrency: { value: 'auto', source: 'default' },
      poll_interval: { value: '2s', source: 'default' },
    });
    const fromEnv = await list([], { EDP_BASE_URL: 'https://env.example.com', EDP_WORKSPACE: '102', EDP_CONCURRENCY: '9', EDP_POLL_INTERVAL: '1m' });
    expect(fromEnv).toEqual({
      workspace: { value: '102', source: 'EDP_WORKSPACE' },
      base_url: { value: 'https://env.example.com', source: 'EDP_BASE_URL' },
      concurrency: { value: '9', source: 'EDP_CONCURRENCY' },
      poll_interval: { value: '1m', source: 'EDP_POLL_INTERVAL' },
    });
    const fromFlags = await list(['--base-url', 'https://flag.example.com', '-w', '103'], { EDP_BASE_URL: 'https://env.example.com', EDP_WORKSPACE: '102' });
    expect(fromFlags.workspace).toEqual({ value: '103', source: '--workspace' });
    expect(fromFlags.base_url).toEqual({ value: 'https://flag.example.com', source: '--base-url' });
  });

  it('lists tab-separated when piped and as a table at a terminal', async () => {
    const { env } = fresh();
    await cli(undefined, ['config', 'set', 'workspace', '101'], { env });
    const piped = await cli(undefined, ['config', 'list'], { env });
    expect(piped.stdout).toBe('workspace\t101\tprofile "default"\nbase_url\thttp://127.0.0.1:4010\tdefault\nconcurrency\tauto\tdefault\npoll_interval\t2s\tdefault\n');
    const tty = await cli(undefined, ['config', 'list'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    expect(tty.stdout).toMatch(/KEY\s+│?\s*VALUE\s+│?\s*SOURCE/);
    expect(tty.stdout).toMatch(/workspace\s+│?\s*101\s+│?\s*profile "default"/);
  });

  it('the profile workspace is the default for -w in commands', async () => {
    const { env } = fresh();
    await cli(undefined, ['config', 'set', 'workspace', '101'], { env });
    const r = await cli(sb, ['datasources', 'list', '--json'], { env: { ...env, EDP_BASE_URL: sb.url } });
    expect(r.code, r.stderr).toBe(0);
    const none = await cli(sb, ['datasources', 'list', '--json'], { env: { ...env, EDP_BASE_URL: sb.url, EDP_PROFILE: 'other' } });
    expect(none.code).toBe(2);
  });

  it('the profile base_url is the service address, below EDP_BASE_URL', async () => {
    const { env } = fresh();
    await cli(undefined, ['config', 'set', 'base_url', sb.url], { env });
    const r = await cli(undefined, ['workspaces', 'list', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const env2 = await cli(undefined, ['workspaces', 'list', '--json'], { env: { ...env, EDP_BASE_URL: 'http://127.0.0.1:9' } });
    expect(env2.code).toBe(1);
  });

  it('refuses an unknown key with exit 2, the list of keys and the nearest one', async () => {
    const { env } = fresh();
    for (const [typed, near] of [['base-url', 'base_url'], ['workspce', 'workspace'], ['poll-interval', 'poll_interval'], ['concurency', 'concurrency']]) {
      const r = await cli(undefined, ['config', 'set', typed!, 'x'], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`unknown setting "${typed}" (did you mean ${near}?); settings: workspace, base_url, concurrency, poll_interval`);
    }
    const far = await cli(undefined, ['config', 'get', 'colour'], { env });
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('unknown setting "colour"; settings: workspace, base_url, concurrency, poll_interval');
  });

  it('refuses a bad value with exit 2, naming the key, and stores nothing', async () => {
    const { env, file } = fresh();
    const cases: Array<[string, string, RegExp]> = [
      ['workspace', 'abc', /workspace must be a positive integer id, got "abc"/],
      ['workspace', '0', /workspace must be a positive integer id/],
      ['base_url', 'ftp://x', /base_url must be an http\(s\) URL, got "ftp:\/\/x"/],
      ['base_url', 'not a url', /base_url must be an http\(s\) URL/],
      ['concurrency', '0', /concurrency must be between 1 and 50, got 0/],
      ['concurrency', '51', /concurrency must be between 1 and 50, got 51/],
      ['concurrency', '2.5', /concurrency must be a whole number, got "2.5"/],
      ['poll_interval', 'soon', /poll_interval must be a duration such as 30s, 5m or 1h, got "soon"/],
      ['poll_interval', '0s', /poll_interval must be longer than 0/],
    ];
    for (const [key, value, message] of cases) {
      const r = await cli(undefined, ['config', 'set', key, value], { env });
      expect(r.code, `${key} ${value}`).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(() => readFileSync(file)).toThrow();
  });

  it('a bad value in the file is exit 2 naming the profile and key', async () => {
    const { env, file } = fresh();
    writeFileSync(file, JSON.stringify({ profiles: { default: { concurrency: 500 } } }));
    const r = await cli(undefined, ['config', 'get', 'concurrency'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('profile "default" setting concurrency must be between 1 and 50, got 500');
  });

  it('warns when the environment overrides what was just set', async () => {
    const { env } = fresh();
    const r = await cli(undefined, ['config', 'set', 'concurrency', '3'], { env: { ...env, EDP_CONCURRENCY: '7' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('EDP_CONCURRENCY is set and wins over the profile');
  });
});

describe('settings in the commands that use them', () => {
  it('recipes deploy and waits take concurrency and poll_interval from the profile and the environment, named in errors', async () => {
    const { env, file } = fresh();
    writeFileSync(file, JSON.stringify({ profiles: { default: { concurrency: 500 } } }));
    const deploy = await cli(sb, ['recipes', 'deploy', '-w', '101', '--template', '4001', '--no-input'], { env: { ...env, EDP_BASE_URL: sb.url } });
    expect(deploy.code).toBe(2);
    expect(deploy.stderr).toContain('profile "default" setting concurrency must be between 1 and 50, got 500');
    const fromEnv = await cli(sb, ['recipes', 'poll', '9007199254740993', '-w', '101'], { env: { ...env, EDP_BASE_URL: sb.url, EDP_POLL_INTERVAL: 'soon' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('EDP_POLL_INTERVAL must be a duration');
    const flag = await cli(sb, ['recipes', 'poll', '9007199254740993', '-w', '101', '--poll-interval', '0s'], { env: { ...env, EDP_BASE_URL: sb.url } });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--poll-interval must be longer than 0');
  });
});

describe('edp auth status --all', () => {
  it('lists every profile without secrets, as JSON, piped and at a terminal; nothing is sent', async () => {
    const { env, file } = fresh();
    writeFileSync(
      file,
      JSON.stringify({
        profiles: {
          default: { username: USERNAME, password: 'secret-password', workspace: '101' },
          staging: { username: 'ops@agency.example', password: 'other-secret', base_url: 'https://staging.example.com', session_id: 'sess-secret' },
          bare: { workspace: '7' },
        },
      }),
    );
    const nowhere = { ...env, EDP_BASE_URL: 'http://127.0.0.1:9' };
    const json = await cli(undefined, ['auth', 'status', '--all', '--json'], { env: nowhere });
    expect(json.code, json.stderr).toBe(0);
    expect(json.json()).toEqual([
      { profile: 'bare', active: false, username: null, base_url: null, workspace: '7', logged_in: false },
      { profile: 'default', active: true, username: USERNAME, base_url: null, workspace: '101', logged_in: true },
      { profile: 'staging', active: false, username: 'ops@agency.example', base_url: 'https://staging.example.com', workspace: null, logged_in: true },
    ]);
    const piped = await cli(undefined, ['auth', 'status', '--all'], { env: nowhere });
    expect(piped.stdout.split('\n')[1]).toBe(`default\t${USERNAME}\thttp://127.0.0.1:4010 (default)\t101\ttrue`);
    const tty = await cli(undefined, ['auth', 'status', '--all', '--profile', 'staging'], { env: nowhere, tty: true });
    expect(tty.stdout).toMatch(/staging \*/);
    for (const out of [json.stdout, piped.stdout, tty.stdout]) expect(out).not.toMatch(/secret/);
  });

  it('says so when there is no profile', async () => {
    const { env } = fresh();
    const r = await cli(undefined, ['auth', 'status', '--all'], { env, tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('No profiles in');
  });
});
