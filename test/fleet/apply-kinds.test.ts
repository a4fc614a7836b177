import { describe, expect, it } from 'vitest';
import type { Service } from '../../src/api/service.js';
import { OutcomeUnknownError } from '../../src/errors.js';
import { applyFleet } from '../../src/fleet/apply.js';
import { parseFleetFile } from '../../src/fleet/file.js';
import { planFleet } from '../../src/fleet/plan.js';
import { quietApply, useChiefService } from '../fixtures/fleet.js';

// An extract or a destination connection whose create lost its answer is made once, never twice.

const t = useChiefService();

const LOSING = ['destinationConnections.create', 'extracts.create'];

/** The service, but each create of LOSING lands and loses its answer. */
function losing(lost: string[]): Service {
  return new Proxy(t.api, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (prop === 'call')
        return async (id: string, ...rest: unknown[]) => {
          const answer = await (target.call as (...a: unknown[]) => Promise<unknown>)(id, ...rest);
          if (!LOSING.includes(id)) return answer;
          lost.push(id);
          throw new OutcomeUnknownError('POST', id, new Error('socket hang up'));
        };
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

describe('apply of the fleet kinds after a lost answer', () => {
  it('reads the connections and extracts again and takes the one created', async () => {
    const file = await parseFleetFile(
      {
        workspaces: [101],
        destinations: [
          {
            destination: 's3',
            title: 'Lake',
            params: { bucket: 'lake', aws_access_key_id: 'AKIALOST', aws_secret_access_key: 'lost-secret' },
          },
        ],
        extracts: [
          { template: 'Facebook Ads Campaign performance', data_source: 'facebook_ads', accounts: ['all-active'] },
        ],
      },
      '--file',
    );
    const plan = await planFleet(t.api, file, { prune: false, concurrency: () => 1 });
    const creates = plan.workspaces[0]!.changes.filter((c) => c.action === 'create').length;
    const lost: string[] = [];
    const rows = await applyFleet(losing(lost), file, plan, quietApply());
    expect(lost).toHaveLength(creates);
    expect(rows.map((r) => r.result)).toEqual(Array(creates).fill('ok'));
    const s = t.sb.store.state;
    expect(s.destination_connections.filter((d) => d.workspace_id === 101 && d.title === 'Lake')).toHaveLength(1);
    const made = s.extracts.filter((e) => e.workspace_id === 101 && e.datasource_name === 'facebook_ads');
    expect(made).toHaveLength(creates - 1);
    expect(new Set(made.map((e) => e.account_entity_id)).size).toBe(made.length);
  });
});
