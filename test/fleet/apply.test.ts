import { describe, expect, it } from 'vitest';
import { applyFleet, type WorkBegun } from '../../src/fleet/apply.js';
import { parseFleetFile } from '../../src/fleet/file.js';
import { planFleet } from '../../src/fleet/plan.js';
import { quietApply, useChiefService } from '../fixtures/fleet.js';

// What apply tells its caller as it goes, as data (the command words it): each piece of work as
// it begins, and each recipe's deployment once it has ended, whatever step it ended on.

const t = useChiefService();

describe('applyFleet tells its progress as data', () => {
  it('each recipe and endpoint as it begins, and each deployment once it has ended', async () => {
    const file = await parseFleetFile(
      {
        workspaces: [101, 102],
        recipes: [
          { template: 'Paid Media Performance', sources: [{ data_source: 'google_ads', accounts: ['all-active'] }] },
        ],
        webhooks: [{ url: 'https://hooks.example.com/fleet-apply', events: ['account_created'] }],
      },
      '--file',
    );
    const plan = await planFleet(t.api, file, { prune: false, concurrency: () => 2 });
    const begun: WorkBegun[] = [];
    const deployed: string[] = [];
    const rows = await applyFleet(
      t.api,
      file,
      plan,
      quietApply({ progress: (w) => begun.push(w), deployed: (ws, name) => deployed.push(`${ws} ${name}`) }),
    );
    // A new endpoint stays unverified without --verify; everything else is done.
    expect(rows.map((r) => `${r.resource} ${r.result}`)).toEqual([
      'recipe ok',
      'webhook unverified',
      'recipe ok',
      'webhook unverified',
    ]);
    expect(begun).toEqual([
      { workspace: '101', resource: 'recipe', name: 'Paid Media Performance', action: 'create, configure, build' },
      { workspace: '101', resource: 'webhook', name: 'https://hooks.example.com/fleet-apply', action: 'create' },
      { workspace: '102', resource: 'recipe', name: 'Paid Media Performance', action: 'create, configure, build' },
      { workspace: '102', resource: 'webhook', name: 'https://hooks.example.com/fleet-apply', action: 'create' },
    ]);
    // The builds end at step 6 (no data tables are waited for): each is still counted as ended.
    expect(deployed).toEqual(['101 Paid Media Performance', '102 Paid Media Performance']);
  });
});
