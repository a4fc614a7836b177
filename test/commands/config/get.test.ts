import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';
import { fresh } from './fixtures.js';

const t = useSandbox();

describe('edp config', () => {
  it('a bad value in the file is exit 2 naming the profile and key', async () => {
    const { env, file } = fresh();
    writeFileSync(file, JSON.stringify({ profiles: { default: { concurrency: 500 } } }));
    const r = await cli(undefined, ['config', 'get', 'concurrency'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('profile "default" setting concurrency must be between 1 and 50, got 500');
  });

  it('the profile workspace is the default for -w in commands', async () => {
    const { env } = fresh();
    await cli(undefined, ['config', 'set', 'workspace', '101'], { env });
    const r = await cli(t.sb, ['datasources', 'list', '--json'], { env: { ...env, EDP_BASE_URL: t.sb.url } });
    expect(r.code, r.stderr).toBe(0);
    const none = await cli(t.sb, ['datasources', 'list', '--json'], {
      env: { ...env, EDP_BASE_URL: t.sb.url, EDP_PROFILE: 'other' },
    });
    expect(none.code).toBe(2);
  });

  it('the profile base_url is the service address, below EDP_BASE_URL', async () => {
    const { env } = fresh();
    await cli(undefined, ['config', 'set', 'base_url', t.sb.url], { env });
    const r = await cli(undefined, ['workspaces', 'list', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const env2 = await cli(undefined, ['workspaces', 'list', '--json'], {
      env: { ...env, EDP_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(env2.code).toBe(1);
  });
});

describe('settings in the commands that use them', () => {
  it('recipes deploy and waits take concurrency and poll_interval from the profile and the environment, named in errors', async () => {
    const { env, file } = fresh();
    writeFileSync(file, JSON.stringify({ profiles: { default: { concurrency: 500 } } }));
    const deploy = await cli(t.sb, ['recipes', 'deploy', '-w', '101', '--template', '4001', '--no-input'], {
      env: { ...env, EDP_BASE_URL: t.sb.url },
    });
    expect(deploy.code).toBe(2);
    expect(deploy.stderr).toContain('profile "default" setting concurrency must be between 1 and 50, got 500');
    const fromEnv = await cli(t.sb, ['recipes', 'poll', '9007199254740993', '-w', '101'], {
      env: { ...env, EDP_BASE_URL: t.sb.url, EDP_POLL_INTERVAL: 'soon' },
    });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('EDP_POLL_INTERVAL must be a duration');
    const flag = await cli(t.sb, ['recipes', 'poll', '9007199254740993', '-w', '101', '--poll-interval', '0s'], {
      env: { ...env, EDP_BASE_URL: t.sb.url },
    });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--poll-interval must be longer than 0');
  });
});
