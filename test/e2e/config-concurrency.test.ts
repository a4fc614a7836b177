import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { http, PASSWORD, sandbox, tempDir, USERNAME } from '../helpers.js';
import { BIN, requireBuild } from './helpers.js';

// Real processes of the built command line (`npm run build` first), sharing one config folder.

let sb: Sandbox;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox();
});
afterAll(() => sb.close());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function edp(args: string[], configDir: string, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, EDP_CONFIG_DIR: configDir, EDP_BASE_URL: sb.url },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const login = (profile: string, dir: string) =>
  edp(['--profile', profile, 'auth', 'login', '--username', USERNAME, '--password-stdin'], dir, PASSWORD);

function profiles(dir: string): Record<string, { username?: string; password?: string }> {
  return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles ?? {};
}

/** The sandbox's tokens of the demo agency's chief, counted per workspace. */
async function chiefTokens(): Promise<Map<number, number>> {
  const state = (await http(sb, 'GET', '/_sandbox/state')).body;
  const chief = state.users.find((u: { email: string }) => u.email === USERNAME);
  const counts = new Map<number, number>();
  for (const t of Object.values(state.tokens as Record<string, { user_id: number; workspace_id: number }>)) {
    if (t.user_id === chief.id) counts.set(t.workspace_id, (counts.get(t.workspace_id) ?? 0) + 1);
  }
  return counts;
}

describe('one config file, many processes', () => {
  // Without the config file's lock, six logins at once lose two profiles or more.
  it('concurrent logins to six profiles all survive', async () => {
    const { dir } = tempDir();
    const names = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
    const runs = await Promise.all(names.map((p) => login(p, dir)));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(profiles(dir)).sort()).toEqual(names);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('processes that need the same workspace token share one; logins meanwhile survive', async () => {
    const { dir } = tempDir();
    expect((await login('default', dir)).code).toBe(0);
    const before = await chiefTokens();
    const workspaces = [101, 102, 103];
    // Without the lock on a token's issuance, the four runs of a workspace issue three or four.
    const tokenRuns = workspaces.flatMap((ws) =>
      Array.from({ length: 4 }, () => edp(['-w', String(ws), 'token'], dir).then((r) => ({ ws, ...r }))),
    );
    const logins = [login('x', dir), login('y', dir)];
    const runs = await Promise.all(tokenRuns);
    for (const r of [...runs, ...(await Promise.all(logins))]) expect(r.code, r.stderr).toBe(0);

    const after = await chiefTokens();
    for (const ws of workspaces) {
      const printed = new Set(runs.filter((r) => r.ws === ws).map((r) => r.stdout.trim()));
      expect(printed.size, `tokens printed for workspace ${ws}`).toBeLessThanOrEqual(2);
      expect((after.get(ws) ?? 0) - (before.get(ws) ?? 0), `tokens issued for workspace ${ws}`).toBeLessThanOrEqual(2);
    }
    const saved = profiles(dir);
    expect(Object.keys(saved).sort()).toEqual(['default', 'x', 'y']);
    for (const p of Object.values(saved)) expect(p.password).toBe(PASSWORD);
  });
});
