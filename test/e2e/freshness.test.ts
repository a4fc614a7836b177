import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { advanceClock, sandbox, tokenFor } from '../helpers.js';
import { builtRecipe } from '../fixtures/recipes.js';
import { runBuiltInProcess } from './built-in-process.js';
import { operatorEnv, requireBuild } from './helpers.js';

// What ships: the built tool (its bundle, run in this process: what it reads is the subject) reads
// the sandbox's clock from the Date of its answers.
const work = mkdtempSync(join(tmpdir(), 'edp-e2e-freshness-'));
let sb: Sandbox;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox({ buildSeconds: 0 });
});
afterAll(async () => {
  await sb?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('edp freshness, built', () => {
  it('ages a build by the service clock: fresh within --max-age (exit 0), stale past it (exit 1)', async () => {
    const { id } = await builtRecipe(sb, await tokenFor(sb, 102), 102, 4001, { google_ads: 'all' });
    const env = operatorEnv(sb.url, join(work, 'config'));
    const fresh = await runBuiltInProcess(['freshness', '-w', '102', '--max-age', '1h', '--format', 'csv'], { env });
    expect(fresh.code, fresh.stderr).toBe(0);
    const [header, row] = fresh.stdout.split('\r\n');
    expect(header!.split(',').slice(0, 3)).toEqual(['workspace_id', 'data_source', 'recipe_ids']);
    expect(row!.split(',').slice(0, 3)).toEqual(['102', 'google_ads', id]);
    // Two hours on the sandbox's clock, none on this machine's or the run's (its Date is whole seconds: 7199 or more).
    await advanceClock(sb, 7200);
    const stale = await runBuiltInProcess(['freshness', '-w', '102', '--max-age', '1h', '--json'], { env });
    expect(stale.code, stale.stderr).toBe(1);
    expect(stale.json()[0]).toMatchObject({ stale: true });
    expect(stale.json()[0].build_age_seconds).toBeGreaterThanOrEqual(7199);
  });
});
