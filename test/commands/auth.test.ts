import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { answerPrompts, cli, http, PASSWORD, sandbox, tempDir, USERNAME } from '../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ tokenTtl: 5 });
});
afterAll(() => sb.close());

/** A fresh config dir and no credentials in the environment: only what login stores. */
function fresh() {
  const dir = tempDir();
  const env = { EDP_CONFIG_DIR: dir.dir, EDP_USERNAME: undefined, EDP_PASSWORD: undefined };
  return { dir: dir.dir, env, file: join(dir.dir, 'config.json') };
}

describe('edp auth', () => {
  it('login checks the credentials, stores them in a 0600 file in a 0700 folder', async () => {
    const { env, file, dir } = fresh();
    const r = await cli(sb, ['auth', 'login', '--username', USERNAME, '--password-stdin'], { env, stdin: `${PASSWORD}\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Logged in to ${sb.url} as ${USERNAME}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored.profiles.default.username).toBe(USERNAME);
    const ws = await cli(sb, ['workspaces', 'list', '--json'], { env });
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
      { EDP_CONFIG_DIR: dir, EDP_BASE_URL: sb.url },
    );
    expect(r.unanswered, r.err).toBe(0);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`Logged in to ${sb.url} as ${USERNAME}`);
    expect(r.err).not.toContain(`${PASSWORD}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.username).toBe(USERNAME);
  });

  it('refuses wrong credentials with exit 3 and saves nothing', async () => {
    const { env, file } = fresh();
    const r = await cli(sb, ['auth', 'login', '--username', USERNAME, '--password-stdin'], { env, stdin: 'wrong' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/refused these credentials \(401\); nothing was saved/);
    expect(() => statSync(file)).toThrow();
  });

  it('never prompts without a terminal: missing input names the flag (exit 2)', async () => {
    const { env } = fresh();
    const noUser = await cli(sb, ['auth', 'login', '--password-stdin'], { env, stdin: 'x' });
    expect(noUser.code).toBe(2);
    expect(noUser.stderr).toContain('--username');
    const noPass = await cli(sb, ['auth', 'login', '--username', USERNAME], { env });
    expect(noPass.code).toBe(2);
    expect(noPass.stderr).toContain('--password-stdin');
    const ci = await cli(sb, ['auth', 'login', '--username', USERNAME], { env: { ...env, CI: 'true' }, tty: true });
    expect(ci.code).toBe(2);
  });

  it('status shows profile, user and tokens, never a secret; logout forgets them', async () => {
    const { env } = fresh();
    await cli(sb, ['auth', 'login', '--username', USERNAME, '--password-stdin'], { env, stdin: PASSWORD });
    const tok = await cli(sb, ['token', '-w', '101'], { env });
    const token = tok.stdout.trim();
    const status = await cli(sb, ['auth', 'status', '--json', '--verbose'], { env });
    expect(status.code).toBe(0);
    const s = status.json();
    expect(s).toMatchObject({ profile: 'default', base_url: sb.url, username: USERNAME, credentials_check: 'valid' });
    expect(s.tokens).toEqual([{ workspace_id: '101', expires_at: expect.any(String), expired: false }]);
    for (const text of [status.stdout, status.stderr]) {
      expect(text).not.toContain(PASSWORD === 'sandbox' ? '"sandbox"' : PASSWORD);
      expect(text).not.toContain(token);
    }
    const human = await cli(sb, ['auth', 'status'], { tty: true, env: { ...env, NO_COLOR: '1' } });
    expect(human.stdout).toMatch(/user\s+agency@sandbox.local/);
    expect(human.stdout).not.toContain(token);

    expect((await cli(sb, ['auth', 'logout'], { env })).code).toBe(0);
    const after = await cli(sb, ['auth', 'status'], { env });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('edp auth login');
  });

  it('keeps profiles apart (--profile) and lets the environment win', async () => {
    const { env } = fresh();
    await cli(sb, ['--profile', 'ops', 'auth', 'login', '--username', USERNAME, '--password-stdin'], { env, stdin: PASSWORD });
    expect((await cli(sb, ['workspaces', 'list'], { env })).code).toBe(3);
    expect((await cli(sb, ['--profile', 'ops', 'workspaces', 'list'], { env })).code).toBe(0);
    expect((await cli(sb, ['workspaces', 'list'], { env: { ...env, EDP_PROFILE: 'ops' } })).code).toBe(0);
    const envWins = await cli(sb, ['--profile', 'ops', 'workspaces', 'list'], { env: { ...env, EDP_USERNAME: USERNAME, EDP_PASSWORD: 'wrong' } });
    expect(envWins.code).toBe(3);
    expect((await cli(sb, ['--profile', 'bad name', 'workspaces', 'list'], { env })).code).toBe(2);
  });

  it('says how to log in when there are no credentials (exit 3)', async () => {
    const { env } = fresh();
    const r = await cli(sb, ['workspaces', 'list'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('EDP_USERNAME');
  });
});

describe('edp token', () => {
  it('prints a token, reuses it across runs, and prints {token, workspace_id, expires_at} with --json', async () => {
    const { env } = fresh();
    const e = { ...env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD };
    const first = await cli(sb, ['token', '-w', '101'], { env: e });
    const second = await cli(sb, ['token', '-w', '101', '--json'], { env: e });
    expect(first.code).toBe(0);
    expect(second.json()).toEqual({ token: first.stdout.trim(), workspace_id: 101, expires_at: expect.any(String) });
    const other = await cli(sb, ['token', '-w', '102'], { env: e });
    expect(other.stdout.trim()).not.toBe(first.stdout.trim());
  });

  it('issues a new token once the cached one has passed 30 minutes since its last use', async () => {
    const { env, file } = fresh();
    const e = { ...env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD };
    const first = (await cli(sb, ['token', '-w', '101'], { env: e })).stdout.trim();
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    const entries = Object.values(cfg.tokens) as Array<{ workspace_id: string; last_used_at: number }>;
    expect(entries.map((e) => e.workspace_id)).toEqual(['101']);
    entries[0]!.last_used_at -= 31 * 60_000;
    writeFileSync(file, JSON.stringify(cfg));
    const second = (await cli(sb, ['token', '-w', '101'], { env: e })).stdout.trim();
    expect(second).not.toBe(first);
  });

  it('re-issues once on a 401 and repeats the call (the service expired the token sooner)', async () => {
    const { env } = fresh();
    const e = { ...env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD };
    const first = (await cli(sb, ['token', '-w', '101'], { env: e })).stdout.trim();
    await http(sb, 'POST', '/_sandbox/clock', { body: { advance_seconds: 10 } }); // past the sandbox's 5 s ttl
    const call = await cli(sb, ['-w', '101', 'api', 'GET', '/api/v3/workspaces/101/dashboards', '--bearer', '--verbose'], { env: e });
    expect(call.code).toBe(0);
    expect(call.stderr).toMatch(/GET \/api\/v3\/workspaces\/101\/dashboards 401/);
    expect(call.stderr).toMatch(/POST \/api\/v3\/token 200/);
    expect(call.stderr).toMatch(/GET \/api\/v3\/workspaces\/101\/dashboards 200/);
    const now = (await cli(sb, ['token', '-w', '101'], { env: e })).stdout.trim();
    expect(now).not.toBe(first);
  });

  it('prints EDP_TOKEN as it is, without issuing one', async () => {
    const r = await cli(sb, ['token', '-w', '101', '--verbose'], { env: { EDP_TOKEN: 'ready-made' } });
    expect(r.stdout.trim()).toBe('ready-made');
    expect(r.stderr).not.toContain('/api/v3/token');
  });

  it('needs a workspace (exit 2) given as an integer', async () => {
    expect((await cli(sb, ['token'])).stderr).toContain('-w/--workspace');
    expect((await cli(sb, ['token', '-w', 'abc'])).code).toBe(2);
  });
});
