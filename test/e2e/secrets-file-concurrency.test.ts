import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSecretsFile } from '../../src/fleet/secrets-file.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { PASSWORD, sandbox, tempDir, USERNAME } from '../helpers.js';
import { operatorEnv, requireBuild, runEdp } from './helpers.js';

// Real processes of the built command line (`npm run build` first) writing one secrets file.

const work = tempDir('edp-e2e-secrets-');
let sb: Sandbox;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox();
});
afterAll(async () => {
  await sb.close();
  work.remove();
});

// Each apply writes the file once per webhook it creates (HOOKS in each of two workspaces), so
// the writes of applies started together overlap: without the lock, the first round alone loses
// 5 to 30 of its 48 secrets. The second round writes into the file the first left.
const ROUNDS = 2;
const APPLIES = 3;
const HOOKS = 8;

/** A fleet file of HOOKS webhook urls of its own, in two workspaces. */
function fleetFile(round: number, run: number): string {
  const path = join(work.dir, `fleet-${round}-${run}.yaml`);
  const hooks = Array.from(
    { length: HOOKS },
    (_, i) => `  - url: https://hooks.example.com/r${round}/a${run}/h${i}\n    events: [workspace_created]\n`,
  );
  writeFileSync(path, `workspaces: [101, 102]\nwebhooks:\n${hooks.join('')}`);
  return path;
}

describe('apply --secrets-file, several processes at once', () => {
  it('applies writing one secrets file at the same time lose no secret', { timeout: 180_000 }, async () => {
    const config = join(work.dir, 'config');
    const secretsDir = join(work.dir, 'secrets');
    const secrets = join(secretsDir, 'secrets.json');
    mkdirSync(secretsDir);
    // A logged-in profile: each run's identity is then a quick digest, not the slow one of
    // credentials from the environment.
    const env = operatorEnv(sb.url, config, { EDP_USERNAME: undefined, EDP_PASSWORD: undefined });
    const login = await runEdp(['auth', 'login', '--username', USERNAME, '--password-stdin'], { env, stdin: PASSWORD });
    expect(login.code, login.stderr).toBe(0);

    const created: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const runs = await Promise.all(
        Array.from({ length: APPLIES }, (_, run) =>
          runEdp(['apply', '-f', fleetFile(round, run), '--yes', '--secrets-file', secrets, '--json'], { env }),
        ),
      );
      for (const r of runs) {
        expect(r.code, r.stderr).toBe(0);
        const rows = r.json<Array<{ workspace_id: number; id: number; resource: string; note?: string }>>();
        const hooks = rows.filter((row) => row.resource === 'webhook');
        expect(hooks).toHaveLength(2 * HOOKS);
        for (const row of hooks) {
          expect(row.note).toContain(`secret written to ${secrets};`);
          created.push(`${row.workspace_id}/${row.id}`);
        }
      }
      const recorded = readSecretsFile(secrets).map((e) => `${e.workspace_id}/${e.endpoint_id}`);
      expect(recorded.sort()).toEqual([...created].sort());
    }
    expect(created).toHaveLength(ROUNDS * APPLIES * 2 * HOOKS);
    expect(new Set(readSecretsFile(secrets).map((e) => e.secret)).size).toBe(created.length);
    expect(readdirSync(secretsDir)).toEqual(['secrets.json']);
  });
});
