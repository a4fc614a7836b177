import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox, tempDir } from '../helpers.js';
import { recipesOf } from '../fixtures/fleet.js';
import { runBuiltInProcess } from './built-in-process.js';
import { operatorEnv, requireBuild } from './helpers.js';

// The built command line (its bundle, run in this process: what it sends and prints is the
// subject): `apply --waves` ends with the exit code of the wave that failed, naming the workspaces
// it did not touch; `--max-changes` refuses before any write.

const dir = tempDir('edp-e2e-waves-');
let sb: Sandbox;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox({ buildSeconds: 0 });
});
afterAll(async () => {
  await sb.close();
  dir.remove();
});

const FLEET = `
workspaces: all
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [all-active]
`;

describe('edp apply --waves and --max-changes, built', () => {
  it('refuses past --max-changes, then a canary wave that fails stops the rest', async () => {
    const fleet = join(dir.dir, 'fleet.yaml');
    writeFileSync(fleet, FLEET);
    const edp = (argv: string[]) => runBuiltInProcess(argv, { env: operatorEnv(sb.url, join(dir.dir, 'config')) });

    const refused = await edp(['apply', '-f', fleet, '--yes', '--max-changes', '8']);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('the plan has 9 changes, more than --max-changes 8; nothing was sent');
    expect(recipesOf(sb, 101)).toEqual([]);

    // Workspace 101's destination cannot host recipes: the canary fails (409) and 102, 103 are left.
    const dc = (sb.store.state as any).destination_connections.find((d: any) => d.workspace_id === 101);
    dc.destination_name = 'sftp';
    const r = await edp(['apply', '-f', fleet, '--yes', '--waves', '1', '--poll-interval', '10ms']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('wave 1 of 2: 101\n');
    expect(r.stderr).toContain('wave 2 of 2 not started: 102, 103');
    expect(r.stderr).toContain('nothing was sent to workspace(s) 102, 103;');
    expect(r.stdout).toMatch(/^103\trecipe\t\tPaid Media Performance\tcreate, configure, build\tnot started\t/m);
    for (const ws of [101, 102, 103]) expect(recipesOf(sb, ws)).toEqual([]);
  });
});
