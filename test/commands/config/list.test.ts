import { describe, expect, it } from 'vitest';
import { cli } from '../../helpers.js';
import { fresh } from './fixtures.js';

describe('edp config', () => {
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
    const fromEnv = await list([], {
      EDP_BASE_URL: 'https://env.example.com',
      EDP_WORKSPACE: '102',
      EDP_CONCURRENCY: '9',
      EDP_POLL_INTERVAL: '1m',
    });
    expect(fromEnv).toEqual({
      workspace: { value: '102', source: 'EDP_WORKSPACE' },
      base_url: { value: 'https://env.example.com', source: 'EDP_BASE_URL' },
      concurrency: { value: '9', source: 'EDP_CONCURRENCY' },
      poll_interval: { value: '1m', source: 'EDP_POLL_INTERVAL' },
    });
    const fromFlags = await list(['--base-url', 'https://flag.example.com', '-w', '103'], {
      EDP_BASE_URL: 'https://env.example.com',
      EDP_WORKSPACE: '102',
    });
    expect(fromFlags.workspace).toEqual({ value: '103', source: '--workspace' });
    expect(fromFlags.base_url).toEqual({ value: 'https://flag.example.com', source: '--base-url' });
  });

  it('lists tab-separated when piped and as a table at a terminal', async () => {
    const { env } = fresh();
    await cli(undefined, ['config', 'set', 'workspace', '101'], { env });
    const piped = await cli(undefined, ['config', 'list'], { env });
    expect(piped.stdout).toBe(
      'workspace\t101\tprofile "default"\nbase_url\thttp://127.0.0.1:4010\tdefault\nconcurrency\tauto\tdefault\npoll_interval\t2s\tdefault\n',
    );
    const tty = await cli(undefined, ['config', 'list'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    expect(tty.stdout).toMatch(/KEY\s+│?\s*VALUE\s+│?\s*SOURCE/);
    expect(tty.stdout).toMatch(/workspace\s+│?\s*101\s+│?\s*profile "default"/);
  });
});
