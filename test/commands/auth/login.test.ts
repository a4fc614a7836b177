import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerPrompts, cli, PASSWORD, USERNAME, freshConfig, useSandbox } from '../../helpers.js';

const t = useSandbox({ tokenTtl: 5 });
const fresh = freshConfig;

describe('edp auth', () => {
  it('login checks the credentials, stores them in a 0600 file in a 0700 folder', async () => {
    const { env, file, dir } = fresh();
    const r = await cli(t.sb, ['auth', 'login', '--username', USERNAME, '--password-stdin'], {
      env,
      stdin: `${PASSWORD}\n`,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Logged in to ${t.sb.url} as ${USERNAME}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored.profiles.default.username).toBe(USERNAME);
    const ws = await cli(t.sb, ['workspaces', 'list', '--json'], { env });
    expect(ws.code).toBe(0);
  });

  it('asks for the user name and password on a terminal, then keeps writing to stderr', async () => {
    const { dir, file } = fresh();
    const r = await answerPrompts(
      ['auth', 'login'],
      [
        ['user name', `${USERNAME}\r`],
        ['Password', `${PASSWORD}\r`],
      ],
      { EDP_CONFIG_DIR: dir, EDP_BASE_URL: t.sb.url },
    );
    expect(r.unanswered, r.err).toBe(0);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`Logged in to ${t.sb.url} as ${USERNAME}`);
    expect(r.err).not.toContain(`${PASSWORD}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.username).toBe(USERNAME);
  });

  it('refuses wrong credentials with exit 3 and saves nothing', async () => {
    const { env, file } = fresh();
    const r = await cli(t.sb, ['auth', 'login', '--username', USERNAME, '--password-stdin'], { env, stdin: 'wrong' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/refused these credentials \(401\); nothing was saved/);
    expect(() => statSync(file)).toThrow();
  });

  it('never prompts without a terminal: missing input names the flag (exit 2)', async () => {
    const { env } = fresh();
    const noUser = await cli(t.sb, ['auth', 'login', '--password-stdin'], { env, stdin: 'x' });
    expect(noUser.code).toBe(2);
    expect(noUser.stderr).toContain('--username');
    const noPass = await cli(t.sb, ['auth', 'login', '--username', USERNAME], { env });
    expect(noPass.code).toBe(2);
    expect(noPass.stderr).toContain('--password-stdin');
    const ci = await cli(t.sb, ['auth', 'login', '--username', USERNAME], { env: { ...env, CI: 'true' }, tty: true });
    expect(ci.code).toBe(2);
  });

  it('keeps profiles apart (--profile) and lets the environment win', async () => {
    const { env } = fresh();
    await cli(t.sb, ['--profile', 'ops', 'auth', 'login', '--username', USERNAME, '--password-stdin'], {
      env,
      stdin: PASSWORD,
    });
    expect((await cli(t.sb, ['workspaces', 'list'], { env })).code).toBe(3);
    expect((await cli(t.sb, ['--profile', 'ops', 'workspaces', 'list'], { env })).code).toBe(0);
    expect((await cli(t.sb, ['workspaces', 'list'], { env: { ...env, EDP_PROFILE: 'ops' } })).code).toBe(0);
    const envWins = await cli(t.sb, ['--profile', 'ops', 'workspaces', 'list'], {
      env: { ...env, EDP_USERNAME: USERNAME, EDP_PASSWORD: 'wrong' },
    });
    expect(envWins.code).toBe(3);
    expect((await cli(t.sb, ['--profile', 'bad name', 'workspaces', 'list'], { env })).code).toBe(2);
  });

  it('says how to log in when there are no credentials (exit 3)', async () => {
    const { env } = fresh();
    const r = await cli(t.sb, ['workspaces', 'list'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('EDP_USERNAME');
  });
});
