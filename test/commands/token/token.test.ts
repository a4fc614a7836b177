import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, http, PASSWORD, USERNAME, freshConfig, useSandbox } from '../../helpers.js';

const t = useSandbox({ tokenTtl: 5 });
const fresh = freshConfig;

describe('edp token', () => {
  it('prints a token, reuses it across runs, and prints {token, workspace_id, expires_at} with --json', async () => {
    const { env } = fresh();
    const e = { ...env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD };
    const first = await cli(t.sb, ['token', '-w', '101'], { env: e });
    const second = await cli(t.sb, ['token', '-w', '101', '--json'], { env: e });
    expect(first.code).toBe(0);
    expect(second.json()).toEqual({ token: first.stdout.trim(), workspace_id: 101, expires_at: expect.any(String) });
    const other = await cli(t.sb, ['token', '-w', '102'], { env: e });
    expect(other.stdout.trim()).not.toBe(first.stdout.trim());
  });

  it('issues a new token once the cached one has passed 30 minutes since its last use', async () => {
    const { env, file } = fresh();
    const e = { ...env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD };
    const first = (await cli(t.sb, ['token', '-w', '101'], { env: e })).stdout.trim();
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    const entries = Object.values(cfg.tokens) as Array<{ workspace_id: string; last_used_at: number }>;
    expect(entries.map((e) => e.workspace_id)).toEqual(['101']);
    entries[0]!.last_used_at -= 31 * 60_000;
    writeFileSync(file, JSON.stringify(cfg));
    const second = (await cli(t.sb, ['token', '-w', '101'], { env: e })).stdout.trim();
    expect(second).not.toBe(first);
  });

  it('re-issues once on a 401 and repeats the call (the service expired the token sooner)', async () => {
    const { env } = fresh();
    const e = { ...env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD };
    const first = (await cli(t.sb, ['token', '-w', '101'], { env: e })).stdout.trim();
    await http(t.sb, 'POST', '/_sandbox/clock', { body: { advance_seconds: 10 } }); // past the sandbox's 5 s ttl
    const call = await cli(
      t.sb,
      ['-w', '101', 'api', 'GET', '/api/v3/workspaces/101/dashboards', '--bearer', '--verbose'],
      { env: e },
    );
    expect(call.code).toBe(0);
    expect(call.stderr).toMatch(/GET \/api\/v3\/workspaces\/101\/dashboards 401/);
    expect(call.stderr).toMatch(/POST \/api\/v3\/token 200/);
    expect(call.stderr).toMatch(/GET \/api\/v3\/workspaces\/101\/dashboards 200/);
    const now = (await cli(t.sb, ['token', '-w', '101'], { env: e })).stdout.trim();
    expect(now).not.toBe(first);
  });

  it('prints EDP_TOKEN as it is, without issuing one', async () => {
    const r = await cli(t.sb, ['token', '-w', '101', '--verbose'], {
      env: { EDP_TOKEN: 'ready-made', EDP_WORKSPACE: '101' },
    });
    expect(r.stdout.trim()).toBe('ready-made');
    expect(r.stderr).not.toContain('/api/v3/token');
  });

  it('needs a workspace (exit 2) given as an integer', async () => {
    expect((await cli(t.sb, ['token'])).stderr).toContain('-w/--workspace');
    expect((await cli(t.sb, ['token', '-w', 'abc'])).code).toBe(2);
  });
});
