import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, PASSWORD, USERNAME } from '../../helpers.js';
import { fresh } from './fixtures.js';

describe('edp config', () => {
  it('sets, gets and unsets each setting in the profile, keeping its credentials', async () => {
    const { env, file, read } = fresh();
    writeFileSync(file, JSON.stringify({ profiles: { default: { username: USERNAME, password: PASSWORD } } }));
    for (const [key, value] of [
      ['workspace', '101'],
      ['base_url', 'https://edp.example.com'],
      ['concurrency', '8'],
      ['poll_interval', '5s'],
    ]) {
      const set = await cli(undefined, ['config', 'set', key!, value!], { env });
      expect(set.code, set.stderr).toBe(0);
      expect(set.stderr).toContain(`Set ${key} to ${value} in profile "default"`);
      const got = await cli(undefined, ['config', 'get', key!], { env });
      expect(got.stdout).toBe(`${value}\n`);
    }
    expect(read().profiles.default).toEqual({
      username: USERNAME,
      password: PASSWORD,
      workspace: '101',
      base_url: 'https://edp.example.com',
      concurrency: 8,
      poll_interval: '5s',
    });
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

  it('refuses an unknown key with exit 2, the list of keys and the nearest one', async () => {
    const { env } = fresh();
    for (const [typed, near] of [
      ['base-url', 'base_url'],
      ['workspce', 'workspace'],
      ['poll-interval', 'poll_interval'],
      ['concurency', 'concurrency'],
    ]) {
      const r = await cli(undefined, ['config', 'set', typed!, 'x'], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `unknown setting "${typed}" (did you mean ${near}?); settings: workspace, base_url, concurrency, poll_interval`,
      );
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

  it('warns when the environment overrides what was just set', async () => {
    const { env } = fresh();
    const r = await cli(undefined, ['config', 'set', 'concurrency', '3'], { env: { ...env, EDP_CONCURRENCY: '7' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('EDP_CONCURRENCY is set and wins over the profile');
  });
});
