import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Service } from '../../src/api/service.js';
import { OutcomeUnknownError } from '../../src/errors.js';
import { applyFailures, applyFleet } from '../../src/fleet/apply.js';
import { parseFleetFile } from '../../src/fleet/file.js';
import { planFleet } from '../../src/fleet/plan.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { quietApply } from '../fixtures/fleet.js';
import { chiefService, noWait, sandbox } from '../helpers.js';

// A client's workspace is created before anything in it, once, whatever becomes of the answer.

let sb: Sandbox | undefined;
let api: Service;
beforeEach(async () => {
  await sb?.close();
  sb = await sandbox({ buildSeconds: 0 });
  api = chiefService(sb, { sleep: noWait });
});
afterAll(async () => {
  await api.close();
  await sb?.close();
});

/** The service, but its workspace creation does `create` instead: lands and loses its answer, or fails. */
function creating(create: (land: () => Promise<unknown>) => Promise<unknown>): Service {
  return new Proxy(api, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (prop === 'read')
        return (id: string, ...rest: unknown[]) => {
          const call = () => (target.read as (...a: unknown[]) => Promise<unknown>)(id, ...rest);
          return id === 'workspaces.create' ? create(call) : call();
        };
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

const apply = async (service: Service) => {
  const file = await parseFleetFile(
    {
      clients: [{ title: 'Umbrella Foods' }],
      webhooks: [{ url: 'https://hooks.example.com/new-client', events: ['recipe_activated'] }],
    },
    '--file',
  );
  const plan = await planFleet(api, file, { prune: false, concurrency: () => 1 });
  return applyFleet(service, file, plan, quietApply());
};

const titled = () => sb!.store.state.workspaces.filter((w) => w.title === 'Umbrella Foods');

describe('a client workspace apply creates', () => {
  it('whose answer was lost is found by its title, never created twice, and receives its entries', async () => {
    let lost = 0;
    const rows = await apply(
      creating(async (land) => {
        await land();
        lost += 1;
        throw new OutcomeUnknownError('POST', '/api/v3/workspaces', new Error('socket hang up'));
      }),
    );
    expect(lost).toBe(1);
    expect(titled()).toHaveLength(1);
    const id = titled()[0]!.id;
    expect(rows.map((r) => [r.workspace_id, r.resource, r.result])).toEqual([
      [id, 'workspace', 'ok'],
      [id, 'webhook', 'unverified'],
    ]);
  });

  it('that could not be created is sent nothing else: the rest is not started, one failure', async () => {
    const rows = await apply(
      creating(async () => {
        throw new Error('refused');
      }),
    );
    expect(titled()).toEqual([]);
    expect(
      rows.map((r) => [r.workspace_id, r.resource, r.result, (r.error as { code?: string } | null)?.code]),
    ).toEqual([
      [null, 'workspace', 'failed', undefined],
      [null, 'webhook', 'not started', 'workspace_not_ready'],
    ]);
    expect(applyFailures(rows)).toHaveLength(1);
    expect(sb!.store.state.webhook_endpoints ?? []).toEqual([]);
  });
});
