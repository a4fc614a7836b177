import { describe, expect, it } from 'vitest';
import { applyFleet, factsOf } from '../../src/fleet/apply.js';
import { parseFleetFile } from '../../src/fleet/file.js';
import { planFleet } from '../../src/fleet/plan.js';
import { quietApply, useChiefService } from '../fixtures/fleet.js';
import { noWait } from '../helpers.js';

// A deployment Ctrl-C ended is told as data: the outcome and its workspace, which the command
// words (what may have landed, the command that finds out); the row carries no sentence of it.

// Builds take 60 s of the sandbox's clock, which stands still: the build is under way at the stop.
const t = useChiefService({ buildSeconds: 60 });

describe('applyFleet stopped while a build is waited on', () => {
  it('records the deployment it interrupted, with its workspace, for the command to word', async () => {
    const file = await parseFleetFile(
      {
        workspaces: [101],
        recipes: [{ template: 4001, sources: [{ data_source: 'google_ads', accounts: ['all-active'] }] }],
      },
      '--file',
    );
    const plan = await planFleet(t.api, file, { prune: false, concurrency: () => 1 });
    const stop = new AbortController();
    const interrupt = Object.assign(new Error('interrupted'), { name: 'InterruptedError' });
    const quiet = quietApply();
    const [row, ...others] = await applyFleet(
      t.api,
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
