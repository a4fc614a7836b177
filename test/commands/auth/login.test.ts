import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sentInClear } from '../../../src/output/clear-text.js';
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

  it('refuses a profile name every object has (__proto__, constructor, toString), naming --profile and EDP_PROFILE', async () => {
    const { env, file } = fresh();
    for (const name of ['__proto__', 'constructor', 'toString', 'prototype']) {
      for (const [argv, extra] of [
        [['--profile', name], {}],
        [[], { EDP_PROFILE: name }],
      ] as const) {
        const r = await cli(t.sb, [...argv, 'auth', 'login', '--username', USERNAME, '--password-stdin'], {
          env: { ...env, ...extra },
          stdin: PASSWORD,
        });
        expect(r.code, name).toBe(2);
        expect(r.stderr).toContain(`--profile (or EDP_PROFILE) "${name}" is a reserved name`);
        expect(r.stderr).not.toContain('Logged in');
      }
    }
    expect(existsSync(file)).toBe(false);
    // Names of the same letters that are not those work as any other.
    const ok = await cli(t.sb, ['--profile', 'proto', 'auth', 'login', '--username', USERNAME, '--password-stdin'], {
      env,
      stdin: PASSWORD,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).profiles)).toEqual(['proto']);
  });

  it('a write removes what killed runs left in the config folder: temporary files and locks of dead processes', async () => {
    const { env, dir } = fresh();
    mkdirSync(dir, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    const leftover = (name: string, content: string, mtime?: Date) => {
      writeFileSync(join(dir, name), content, { mode: 0o600 });
      if (mtime) utimesSync(join(dir, name), mtime, mtime);
    };
    // conf's temporary file of a login killed before its rename, with the password in it
    leftover('config.json.tmp-1732761234a1b2c3', `{"profiles": {"default": {"password": "${PASSWORD}"}}}`, old);
    // the lock of that login, and a token issuance lock, both held by processes that are gone
    leftover('config.json.lock', `999999999 ${hostname()} 0123456789abcdef\n`);
    leftover('token-0123456789abcdef0123.lock', `999999998 ${hostname()} 0123456789abcdef\n`);
    // a live process's issuance lock, and a temporary file young enough to be a running write's
    leftover('token-aaaaaaaaaaaaaaaaaaaa.lock', `${process.pid} ${hostname()} 0123456789abcdef\n`);
    leftover('config.json.tmp-1732761299d4e5f6', '{}');
    const r = await cli(t.sb, ['auth', 'login', '--username', USERNAME, '--password-stdin'], { env, stdin: PASSWORD });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([
      'config.json',
      'config.json.tmp-1732761299d4e5f6',
      'token-aaaaaaaaaaaaaaaaaaaa.lock',
    ]);
  });

  it('warns that the password crosses the network in clear text over http to another machine, even with --quiet', async () => {
    const { env } = fresh();
    const login = (url: string, ...flags: string[]) =>
      cli(t.sb, [...flags, 'auth', 'login', '--username', USERNAME, '--password-stdin'], {
        env: { ...env, EDP_BASE_URL: url },
        stdin: PASSWORD,
      });
    const local = await login(t.sb.url);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).not.toContain('unencrypted');
    // 0.0.0.0 is no loopback address, yet a connection to it reaches this machine's sandbox.
    const remote = t.sb.url.replace('127.0.0.1', '0.0.0.0');
    const r = await login(remote, '--quiet', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ profile: 'default', username: USERNAME });
    expect(r.stderr).toContain(
      `${remote} is plain http to another machine: the user name and password will cross the network unencrypted`,
    );

    for (const url of [
      'http://127.0.0.1:4010',
      'http://127.1',
      'http://localhost:8080/',
      'http://[::1]:4010',
      'https://api.example.com',
    ])
      expect(sentInClear(url), url).toBe(false);
    for (const url of [
      'http://api.example.com',
      'http://10.0.0.5:4010',
      'http://[fe80::1]/',
      'http://localhost.example.com',
    ])
      expect(sentInClear(url), url).toBe(true);
  });
});
