import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, PASSWORD, USERNAME, freshConfig, useSandbox } from '../../helpers.js';

const t = useSandbox({ tokenTtl: 5 });
const fresh = freshConfig;

describe('edp auth', () => {
  it('status shows profile, user and tokens, never a secret; logout forgets them', async () => {
    const { env } = fresh();
    await cli(t.sb, ['auth', 'login', '--username', USERNAME, '--password-stdin'], { env, stdin: PASSWORD });
    const tok = await cli(t.sb, ['token', '-w', '101'], { env });
    const token = tok.stdout.trim();
    const status = await cli(t.sb, ['auth', 'status', '--json', '--verbose'], { env });
    expect(status.code).toBe(0);
    const s = status.json();
    expect(s).toMatchObject({ profile: 'default', base_url: t.sb.url, username: USERNAME, credentials_check: 'valid' });
    expect(s.tokens).toEqual([{ workspace_id: '101', expires_at: expect.any(String), expired: false }]);
    for (const text of [status.stdout, status.stderr]) {
      expect(text).not.toContain(PASSWORD === 'sandbox' ? '"sandbox"' : PASSWORD);
      expect(text).not.toContain(token);
    }
    const human = await cli(t.sb, ['auth', 'status'], { tty: true, env: { ...env, NO_COLOR: '1' } });
    expect(human.stdout).toMatch(/user\s+agency@sandbox.local/);
    expect(human.stdout).not.toContain(token);

    expect((await cli(t.sb, ['auth', 'logout'], { env })).code).toBe(0);
    const after = await cli(t.sb, ['auth', 'status'], { env });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('edp auth login');
  });

  it("a token is expired by the run's clock", async () => {
    const { env } = fresh();
    await cli(t.sb, ['auth', 'login', '--username', USERNAME, '--password-stdin'], { env, stdin: PASSWORD });
    expect((await cli(t.sb, ['token', '-w', '101'], { env })).code).toBe(0);
    const [token] = (await cli(t.sb, ['auth', 'status', '--json', '--offline'], { env })).json().tokens;
    expect(token).toMatchObject({ workspace_id: '101', expired: false });
    const later = await cli(t.sb, ['auth', 'status', '--json', '--offline'], {
      env,
      now: Date.parse(token.expires_at),
    });
    expect(later.json().tokens).toEqual([{ workspace_id: '101', expires_at: token.expires_at, expired: true }]);
  });

  it('--verbose logs the credential check like any other request', async () => {
    const r = await cli(t.sb, ['auth', 'status', '--verbose']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/GET \/api\/v3\/workspaces\S* 200/);
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
          staging: {
            username: 'ops@agency.example',
            password: 'other-secret',
            base_url: 'https://staging.example.com',
            session_id: 'sess-secret',
          },
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
      {
        profile: 'staging',
        active: false,
        username: 'ops@agency.example',
        base_url: 'https://staging.example.com',
        workspace: null,
        logged_in: true,
      },
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
