import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CredentialAuth, TOKEN_LIFETIME_MS } from '../../src/api/auth.js';
import type { Credentials } from '../../src/config/credentials.js';
import type { ApiClient } from '../../src/api/client.js';
import { acquireLock } from '../../src/config/lock.js';
import { ConfigFileError, ConfigStore, type ConfigFile } from '../../src/config/store.js';
import { identityKind, identityOf, serviceKey } from '../../src/config/token-cache.js';
import { tempDir } from '../helpers.js';
import { turns } from '../fixtures/turns.js';

const SERVICE = 'http://127.0.0.1:4010';
const CHIEF = { username: 'chief@agency.example', password: 'right' };

function store(dir: string) {
  return new ConfigStore(dir);
}

function onDisk(dir: string): ConfigFile {
  return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
}

/** A stand-in client that issues numbered tokens and counts them. */
function issuer() {
  let issued = 0;
  const client = {
    request: async () => ({ status: 200, headers: {}, traceId: undefined, data: { token: `tok-${++issued}` } }),
  } as unknown as ApiClient;
  return { client, count: () => issued };
}

function auth(s: ConfigStore, credentials: Credentials, now: () => number, baseUrl = SERVICE) {
  return new CredentialAuth({ credentials, baseUrl, store: s, profile: 'default', now });
}

async function loggedIn(dir: string): Promise<void> {
  await store(dir).updateProfile('default', () => ({ ...CHIEF }));
}

describe('ConfigStore writes', () => {
  it("re-reads the file under the lock: a write from a stale snapshot keeps another process's logout", async () => {
    const { dir } = tempDir();
    await loggedIn(dir);
    const running = store(dir);
    expect(running.profile('default').password).toBe('right'); // its snapshot, taken before the logout
    await store(dir).updateProfile('default', () => undefined); // `edp auth logout` elsewhere
    await running.updateProfile('other', (p) => ({ ...p, workspace: '101' }));
    expect(onDisk(dir).profiles).toEqual({ other: { workspace: '101' } });
  });

  it('a running command that saves its token after a logout elsewhere leaves the password and the token gone', async () => {
    const { dir } = tempDir();
    await loggedIn(dir);
    const now = 1_000_000;
    const s = store(dir);
    const a = auth(s, { ...CHIEF, source: 'profile' }, () => now);
    const { client } = issuer();
    await a.token('101', client);
    expect(Object.keys(onDisk(dir).tokens ?? {})).toHaveLength(1);

    const logout = store(dir);
    await logout.updateProfile('default', () => undefined);
    a.used('101');
    // a token being issued after the logout, and the last-use time written at exit
    await a.token('102', client);
    const later = auth(s, { ...CHIEF, source: 'profile' }, () => now + 5 * 60_000);
    await later.token('101', client);
    later.used('101');
    await later.flush();
    const file = onDisk(dir);
    expect(file.profiles?.default).toBeUndefined();
    expect(JSON.stringify(file)).not.toContain('"right"');
    expect(Object.values(file.tokens ?? {}).map((t) => t.workspace_id)).toEqual(['101']);
  });

  it('saves last_used_at, so a token in constant use is not re-issued', async () => {
    const { dir } = tempDir();
    await loggedIn(dir);
    let now = 1_000_000;
    const { client, count } = issuer();
    const creds: Credentials = { ...CHIEF, source: 'profile' };
    // one run every 10 minutes for 2 hours, each using the token once
    for (let run = 0; run < 12; run++) {
      const a = auth(store(dir), creds, () => now);
      await a.token('101', client);
      a.used('101');
      await a.flush();
      now += 10 * 60_000;
    }
    expect(count()).toBe(1);
    const [entry] = Object.values(onDisk(dir).tokens ?? {});
    expect(entry!.last_used_at).toBe(1_000_000 + 11 * 10 * 60_000);
  });

  it('writes a 0600 file in a 0700 folder and leaves no temporary file or lock behind', async () => {
    const { dir } = tempDir();
    const sub = join(dir, 'edp');
    await store(sub).updateProfile('default', () => ({ ...CHIEF }));
    expect(statSync(join(sub, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(sub).mode & 0o777).toBe(0o700);
    expect(readdirSync(sub)).toEqual(['config.json']);
  });

  it('settles once every change it started is written or has failed, also those nobody awaits', async () => {
    const { dir } = tempDir();
    const s = store(dir);
    mkdirSync(dir, { recursive: true });
    // Another process holds the lock: the salt's write, which nobody awaits, waits for it.
    const held = await acquireLock(s.lockFile, { waitMs: 0, staleMs: 60_000 });
    const salt = s.expectedTokenKeySalt();
    let settled = false;
    const settling = s.settled().then(() => (settled = true));
    await turns(20);
    expect(settled).toBe(false);
    held!.release();
    await settling;
    expect(onDisk(dir).token_key_salt).toBe(salt);
    expect(readdirSync(dir)).toEqual(['config.json']);
    await s.settled();

    // A change that fails settles too, without a rejection.
    const blocked = join(dir, 'file');
    writeFileSync(blocked, '');
    const failing = store(join(blocked, 'edp'));
    failing.expectedTokenKeySalt();
    await expect(failing.settled()).resolves.toBeUndefined();
  });

  it('breaks a lock left by a process that died, and waits a bounded time for a live one', async () => {
    const { dir } = tempDir();
    const s = store(dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(s.lockFile, `999999999 ${(await import('node:os')).hostname()} dead\n`);
    await s.updateProfile('default', () => ({ ...CHIEF }));
    expect(existsSync(s.lockFile)).toBe(false);
    expect(onDisk(dir).profiles?.default?.username).toBe(CHIEF.username);

    const held = await acquireLock(join(dir, 'x.lock'), { waitMs: 0, staleMs: 60_000 });
    expect(held).toBeDefined();
    expect(await acquireLock(join(dir, 'x.lock'), { waitMs: 30, staleMs: 60_000 })).toBeUndefined();
    held!.release();
    expect(await acquireLock(join(dir, 'x.lock'), { waitMs: 0, staleMs: 60_000 })).toBeDefined();
  });
});

describe('ConfigStore reads', () => {
  for (const [what, text] of [
    ['not JSON', '{"profiles": {'],
    ['not an object', '[]'],
    ['a profile not an object', '{"profiles": {"default": 3}}'],
    ['a salt of the wrong kind', '{"token_key_salt": 5}'],
    ['a user name of the wrong kind', '{"profiles": {"default": {"username": ["a"]}}}'],
    ['a concurrency of the wrong kind', '{"profiles": {"default": {"concurrency": "many"}}}'],
    ['a cached token of the wrong kind', '{"tokens": {"k": {"token": 7}}}'],
  ] as const) {
    it(`names the file and the way out when it is ${what}, and never overwrites it`, async () => {
      const { dir } = tempDir();
      const file = join(dir, 'config.json');
      writeFileSync(file, text);
      const s = store(dir);
      expect(() => s.read()).toThrow(ConfigFileError);
      expect(() => s.read()).toThrow(`mv "${file}" "${file}.broken"`);
      await expect(s.updateProfile('default', () => ({ ...CHIEF }))).rejects.toThrow(file);
      expect(readFileSync(file, 'utf8')).toBe(text);
    });
  }

  it('names the field of the wrong kind', () => {
    const { dir } = tempDir();
    writeFileSync(join(dir, 'config.json'), '{"token_key_salt": 5, "profiles": {"ops": {"base_url": {}}}}');
    expect(() => store(dir).read()).toThrow('has profiles.ops.base_url of the wrong kind (an object)');
    writeFileSync(join(dir, 'config.json'), '{"token_key_salt": 5}');
    expect(() => store(dir).read()).toThrow('has token_key_salt of the wrong kind (a number; a string is expected)');
    // Fields a newer edp may add are kept and pass.
    writeFileSync(join(dir, 'config.json'), '{"profiles": {"ops": {"colour": 3}}, "later": true}');
    expect(store(dir).read()).toMatchObject({ profiles: { ops: { colour: 3 } } });
  });

  it('ignores tokens cached the old way (per profile, by workspace only) and drops them on the next write', async () => {
    const { dir } = tempDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        profiles: {
          default: { ...CHIEF, tokens: { '101': { token: 'old', issued_at: Date.now(), last_used_at: Date.now() } } },
        },
      }),
    );
    const { client, count } = issuer();
    const token = await auth(store(dir), { ...CHIEF, source: 'profile' }, Date.now).token('101', client);
    expect(token).toBe('tok-1');
    expect(count()).toBe(1);
    expect(onDisk(dir).profiles?.default).toEqual(CHIEF);
  });
});

describe('token cache keys', () => {
  it('a token is used only by the identity and the service it was issued to', async () => {
    const { dir } = tempDir();
    await loggedIn(dir);
    const now = () => 1_000_000;
    const { client, count } = issuer();
    const chief = await auth(store(dir), { ...CHIEF, source: 'profile' }, now).token('101', client);
    expect(await auth(store(dir), { ...CHIEF, source: 'profile' }, now).token('101', client)).toBe(chief);
    expect(count()).toBe(1);
    // the environment's user, a wrong password of the same user, another service
    for (const [creds, baseUrl] of [
      [{ username: 'analyst@agency.example', password: 'x', source: 'env' }, SERVICE],
      [{ username: CHIEF.username, password: 'wrong', source: 'env' }, SERVICE],
      [{ username: CHIEF.username, password: 'wrong', source: 'profile' }, SERVICE],
      [{ ...CHIEF, source: 'profile' }, 'http://127.0.0.1:4011'],
    ] as Array<[Credentials, string]>) {
      expect(await auth(store(dir), creds, now, baseUrl).token('101', client)).not.toBe(chief);
    }
    expect(count()).toBe(5);
  });

  it('digests are salted per file, slow for environment passwords, and never hold the password', async () => {
    const a = await identityOf('env', 'salt-a', 'u@x', 'hunter2');
    expect(a).toMatch(/^basic:u@x:scrypt:/);
    expect(a).not.toContain('hunter2');
    expect(await identityOf('env', 'salt-a', 'u@x', 'hunter2')).toBe(a);
    expect(await identityOf('env', 'salt-b', 'u@x', 'hunter2')).not.toBe(a);
    expect(await identityOf('env', 'salt-a', 'u@x', 'hunter3')).not.toBe(a);
    expect(await identityOf('profile', 'salt-a', 'u@x', 'hunter2')).toMatch(/^basic:u@x:hmac:/);
    // The HMAC for a profile's password, which the file holds anyway; scrypt for any other.
    expect(identityKind('profile')).toBe('profile');
    for (const source of ['env', 'login', undefined] as const) expect(identityKind(source)).toBe('env');
    expect(serviceKey('HTTP://Example.COM:80/api/')).toBe('http://example.com/api');
  });

  it("the salt a new file is getting is known at once; the file's wins when another process wrote one first", async () => {
    const { dir } = tempDir();
    const s = store(dir);
    const expected = s.expectedTokenKeySalt();
    expect(expected).toMatch(/^[\w-]{43}$/);
    expect(s.expectedTokenKeySalt()).toBe(expected);
    expect(await s.tokenKeySalt()).toBe(expected);
    expect(onDisk(dir).token_key_salt).toBe(expected);

    // Another process writes its salt between this one's read and its write: the file's is the salt.
    const other = tempDir().dir;
    const late = store(other);
    late.read();
    await store(other).tokenKeySalt();
    const theirs = onDisk(other).token_key_salt;
    expect(late.expectedTokenKeySalt()).not.toBe(theirs);
    expect(await late.tokenKeySalt()).toBe(theirs);
    expect(onDisk(other).token_key_salt).toBe(theirs);
  });

  it('a salt that cannot be written fails whoever awaits it, and a run that never does carries on', async () => {
    const { dir } = tempDir();
    const blocked = join(dir, 'file');
    writeFileSync(blocked, '');
    const s = store(join(blocked, 'edp'));
    expect(s.expectedTokenKeySalt()).toMatch(/^[\w-]{43}$/);
    await expect(s.tokenKeySalt()).rejects.toThrow();
    // Unawaited: an unhandled rejection would fail this test run.
    const other = store(join(blocked, 'other'));
    other.expectedTokenKeySalt();
    await other.settled();
  });

  it('expired tokens are dropped from the file when a new one is saved', async () => {
    const { dir } = tempDir();
    await loggedIn(dir);
    let now = 1_000_000;
    const { client } = issuer();
    await auth(store(dir), { ...CHIEF, source: 'profile' }, () => now).token('101', client);
    now += TOKEN_LIFETIME_MS + 1;
    await auth(store(dir), { ...CHIEF, source: 'profile' }, () => now).token('102', client);
    expect(Object.values(onDisk(dir).tokens ?? {}).map((t) => t.workspace_id)).toEqual(['102']);
  });
});
