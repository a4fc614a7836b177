import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/api/service.js';
import { applyFleet, factsOf } from '../../src/fleet/apply.js';
import { parseFleetFile } from '../../src/fleet/file.js';
import { planFleet } from '../../src/fleet/plan.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { quietApply } from '../fixtures/fleet.js';
import { chiefService, noWait, sandbox } from '../helpers.js';

// A deployment Ctrl-C ended is told as data: the outcome and its workspace, which the command
// words (what may have landed, the command that finds out); the row carries no sentence of it.

let sb: Sandbox;
let api: Service;
beforeAll(async () => {
  // Builds take 60 s of the sandbox's clock, which stands still: the build is under way at the stop.
  sb = await sandbox({ buildSeconds: 60 });
  api = chiefService(sb, { sleep: noWait });
});
afterAll(async () => {
  await api.close();
  await sb.close();
});

describe('applyFleet stopped while a build is waited on', () => {
  it('records the deployment it interrupted, with its workspace, for the command to word', async () => {
    const file = await parseFleetFile(
      {
        workspaces: [101],
        recipes: [{ template: 4001, sources: [{ data_source: 'google_ads', accounts: ['all-active'] }] }],
      },
      '--file',
    );
    const plan = await planFleet(api, file, { prune: false, concurrency: () => 1 });
    const stop = new AbortController();
    const interrupt = Object.assign(new Error('interrupted'), { name: 'InterruptedError' });
    const quiet = quietApply();
    const [row, ...others] = await applyFleet(
      api,
      file,
      plan,
      quietApply({
        wait: { ...quiet.wait, signal: stop.signal, sleep: noWait },
        reporter: () => async () => (event) => {
          if (event.phase === 'building') stop.abort(interrupt);
        },
        signal: stop.signal,
      }),
    );
    expect(others).toEqual([]);
    expect(row).toMatchObject({ resource: 'recipe', result: 'interrupted' });
    expect(row!.error).toEqual({ code: 'interrupted', message: 'stopped by Ctrl-C or a stop signal' });
    expect(row).not.toHaveProperty('note');
    const [deploy, ...more] = factsOf(row!);
    expect(more).toEqual([]);
    expect(deploy).toMatchObject({ kind: 'interrupted-deploy', workspace: '101' });
    const outcome = deploy?.kind === 'interrupted-deploy' ? deploy.outcome : undefined;
    expect(outcome).toMatchObject({ interrupted: true, step: 6, adopted: false });
    expect(outcome?.recipe?.recipe_id).toEqual(row!.id);
  });
});
