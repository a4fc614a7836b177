import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, http, PASSWORD, sandbox, tempDir, tokenFor, USERNAME } from '../helpers.js';

const ANALYST = 'analyst@sandbox.local';

let a: Sandbox;
let b: Sandbox;
beforeAll(async () => {
  [a, b] = await Promise.all([sandbox(), sandbox()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

/** A private config folder and no credentials in the environment. */
function fresh() {
  const { dir } = tempDir();
  return {
    dir,
    file: join(dir, 'config.json'),
    env: { EDP_CONFIG_DIR: dir, EDP_USERNAME: undefined, EDP_PASSWORD: undefined } as Record<
      string,
      string | undefined
    >,
  };
}

async function login(sb: Sandbox, env: Record<string, string | undefined>) {
  const r = await cli(sb, ['auth', 'login', '--username', USERNAME, '--password-stdin'], { env, stdin: PASSWORD });
  expect(r.code, r.stderr).toBe(0);
}

/** Tokens the sandbox has issued to a user, by workspace. */
async function tokensOf(sb: Sandbox, email: string): Promise<number[]> {
  const state = (await http(sb, 'GET', '/_sandbox/state')).body;
  const user = state.users.find((u: { email: string }) => u.email === email);
  return Object.values(state.tokens as Record<string, { user_id: number; workspace_id: number }>)
    .filter((t) => t.user_id === user.id)
    .map((t) => t.workspace_id);
}

describe('cached tokens belong to one identity at one service', () => {
  it("credentials from the environment never ride on the logged-in user's token; a wrong password is refused (exit 3)", async () => {
    const { env } = fresh();
    await login(a, env);
    expect((await cli(a, ['-w', '101', 'datasources', 'list', '--json'], { env })).code).toBe(0);

    const wrong = await cli(a, ['-w', '101', 'datasources', 'list', '--json'], {
      env: { ...env, EDP_USERNAME: ANALYST, EDP_PASSWORD: 'wrong' },
    });
    expect(wrong.code, wrong.stderr).toBe(3);
    const chiefWrong = await cli(a, ['-w', '101', 'datasources', 'list'], {
      env: { ...env, EDP_USERNAME: USERNAME, EDP_PASSWORD: 'wrong' },
    });
    expect(chiefWrong.code, chiefWrong.stderr).toBe(3);

    expect(await tokensOf(a, ANALYST)).toEqual([]);
    const analyst = await cli(a, ['-w', '101', 'datasources', 'list', '--json'], {
      env: { ...env, EDP_USERNAME: ANALYST, EDP_PASSWORD: 'sandbox' },
    });
    expect(analyst.code, analyst.stderr).toBe(0);
    expect(await tokensOf(a, ANALYST)).toEqual([101]);
  });

  it("--base-url of another service never receives the profile service's token", async () => {
    const { env } = fresh();
    await login(a, env); // stores a's address in the profile
    expect((await cli(a, ['-w', '101', 'datasources', 'list'], { env })).code).toBe(0);
    const elsewhere = await cli(undefined, ['--base-url', b.url, '--verbose', '-w', '101', 'datasources', 'list'], {
      env,
    });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    // b would refuse a's token with 401; it gets none, only a token it issued itself
    expect(elsewhere.stderr).not.toMatch(/ 401 /);
    expect(elsewhere.stderr.split('\n')[0]).toMatch(/^POST \/api\/v3\/token 200/);
    // and back at a, a's token is still the one in use
    const home = await cli(undefined, ['--verbose', '-w', '101', 'datasources', 'list'], { env });
    expect(home.code).toBe(0);
    expect(home.stderr).not.toContain('/api/v3/token');
  });
});

describe('auth status checks the credentials in use', () => {
  it("EDP_TOKEN: checks that token, not the profile's Basic credentials", async () => {
    const { env } = fresh();
    await login(a, env);
    const bad = await cli(a, ['auth', 'status', '--json', '--verbose'], {
      env: { ...env, EDP_TOKEN: 'not-a-real-token-7f3', EDP_WORKSPACE: '101' },
    });
    expect(bad.code).toBe(3);
    expect(bad.json()).toMatchObject({
      credentials: 'environment (EDP_TOKEN)',
      credentials_source: 'env',
      credentials_kind: ['token'],
      credentials_check: 'rejected',
      username: null,
    });
    expect(bad.stderr).toMatch(/GET \/api\/v3\/datasources 401/);
    expect(bad.stderr).not.toContain('/api/v3/workspaces');
    expect(bad.stdout + bad.stderr).not.toContain('not-a-real-token-7f3');

    const token = await tokenFor(a, 101);
    const good = await cli(a, ['auth', 'status', '--json'], {
      env: { ...env, EDP_TOKEN: token, EDP_WORKSPACE: '101' },
    });
    expect(good.code, good.stderr).toBe(0);
    expect(good.json()).toMatchObject({ credentials_kind: ['token'], credentials_check: 'valid' });
    expect(good.stdout + good.stderr).not.toContain(token);
  });

  it('environment Basic credentials: reports their source, and a wrong password as rejected (exit 3)', async () => {
    const { env } = fresh();
    await login(a, env);
    const r = await cli(a, ['auth', 'status', '--json'], {
      env: { ...env, EDP_USERNAME: USERNAME, EDP_PASSWORD: 'wrong' },
    });
    expect(r.code).toBe(3);
    expect(r.json()).toMatchObject({
      credentials: 'environment (EDP_USERNAME/EDP_PASSWORD)',
      credentials_kind: ['basic'],
      credentials_check: 'rejected',
    });
    const human = await cli(a, ['auth', 'status'], { tty: true, env: { ...env, NO_COLOR: '1' } });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/credentials\s+profile "default"/);
    expect(human.stdout).toMatch(/kind\s+basic/);
  });

  it("auth login makes its check through the run's client, so --verbose logs it (never the password)", async () => {
    const { env } = fresh();
    const r = await cli(a, ['auth', 'login', '--username', USERNAME, '--password-stdin', '--verbose'], {
      env,
      stdin: 'a-distinct-password',
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/GET \/api\/v3\/workspaces\?page=1&page_size=1 401/);
    expect(r.stderr).not.toContain('a-distinct-password');
  });
});

describe('a configuration folder that cannot be written', () => {
  it('does not stop a run that needs a token: the token is just not cached', async () => {
    const { dir } = tempDir();
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, '');
    const env = { EDP_CONFIG_DIR: join(blocker, 'edp') };
    const first = await cli(a, ['-w', '101', 'token'], { env });
    expect(first.code, first.stderr).toBe(0);
    const second = await cli(a, ['-w', '101', 'datasources', 'list', '--verbose'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/POST \/api\/v3\/token 200/);
  });
});

describe('a configuration file that cannot be used', () => {
  it('stops every command with its path and the way out (exit 2), sends nothing and leaves the file as it is', async () => {
    const { env, file } = fresh();
    const broken = '{"profiles": {"default": {"username": ';
    writeFileSync(file, broken);
    for (const [argv, extra] of [
      [['workspaces', 'list'], {}],
      [['workspaces', 'list'], { EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD }],
      [['-w', '101', 'token'], { EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD }],
      [['auth', 'status'], {}],
      [['auth', 'login', '--username', USERNAME, '--password-stdin'], {}],
      [['auth', 'logout'], {}],
    ] as Array<[string[], Record<string, string>]>) {
      const r = await cli(a, ['--verbose', ...argv], { env: { ...env, ...extra }, stdin: PASSWORD });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(`the configuration file ${file} is not valid JSON`);
      expect(r.stderr).toContain(`mv "${file}" "${file}.broken"`);
      expect(r.stderr).toContain('edp auth login');
      expect(r.stderr).not.toMatch(/^(GET|POST) /m);
      expect(readFileSync(file, 'utf8')).toBe(broken);
    }
  });

  it('a field of the wrong kind is named, with the file, before anything is sent (exit 2, no stack trace)', async () => {
    const { env, file } = fresh();
    writeFileSync(file, '{"token_key_salt": 5}');
    for (const argv of [
      ['-w', '101', 'token'],
      ['workspaces', 'list'],
    ]) {
      const r = await cli(a, ['--verbose', ...argv], {
        env: { ...env, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD },
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`the configuration file ${file} has token_key_salt of the wrong kind`);
      expect(r.stderr).not.toContain('TypeError');
      expect(r.stderr).not.toMatch(/^(GET|POST) /m);
    }
  });
});
