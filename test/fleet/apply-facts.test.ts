import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/api/service.js';
import { OutcomeUnknownError } from '../../src/errors.js';
import { applyFleet, factsOf, type ApplyRow, type FleetApplyOptions } from '../../src/fleet/apply.js';
import { parseFleetFile, type FleetFile } from '../../src/fleet/file.js';
import { planFleet, type FleetPlan } from '../../src/fleet/plan.js';
import { SecretsFileWriter } from '../../src/fleet/secrets-file.js';
import { applyWaves, parseWaves, resolveWaves } from '../../src/fleet/waves.js';
import { endpointsOf, quietApply, useChiefService } from '../fixtures/fleet.js';
import { tempDir } from '../helpers.js';

// What a row's result does not say (where a secret went, what may have landed, what is left) is
// told as facts beside the row, which the command words as its note: the row itself carries none.

const t = useChiefService();
const dir = tempDir('edp-apply-facts-');
afterAll(() => dir.remove());

/** The service, but each call of an operation named in `does` goes through it (`send` sends it). */
function through(
  does: Record<string, (send: () => Promise<unknown>, spec: { workspaceId?: string }) => Promise<unknown>>,
  more: { unreachable?: Error } = {},
): Service {
  return new Proxy(t.api, {
    get(target, prop) {
      if (prop === 'unreachable' && more.unreachable) return more.unreachable;
      const v = Reflect.get(target, prop, target) as unknown;
      if (prop === 'call')
        return (id: string, spec: { workspaceId?: string }) => {
          const send = () => (target.call as (...a: unknown[]) => Promise<unknown>)(id, spec);
          return does[id] ? does[id](send, spec) : send();
        };
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

let urls = 0;
/** A fleet file creating one endpoint (at a url of its own) in each of `workspaces`, and its plan. */
async function newEndpoint(workspaces: number[]): Promise<{ file: FleetFile; plan: FleetPlan }> {
  urls += 1;
  const file = await parseFleetFile(
    { workspaces, webhooks: [{ url: `https://hooks.example.com/facts-${urls}`, events: ['load_completed'] }] },
    '--file',
  );
  return { file, plan: await planFleet(t.api, file, { prune: false, concurrency: () => 1 }) };
}

async function applyOne(service: Service, more: Partial<FleetApplyOptions> = {}): Promise<ApplyRow> {
  const { file, plan } = await newEndpoint([103]);
  const rows = await applyFleet(service, file, plan, quietApply(more));
  expect(rows).toHaveLength(1);
  expect(rows[0]).not.toHaveProperty('note');
  return rows[0]!;
}

const newest = () => String(endpointsOf(t.sb, 103).at(-1).id);

describe("applyFleet: a new endpoint's facts", () => {
  it('left unverified, its secret in the row', async () => {
    const row = await applyOne(t.api);
    expect(row).toMatchObject({ result: 'unverified', secret: expect.any(String) });
    expect(factsOf(row)).toEqual([{ kind: 'unverified', endpoint: newest(), workspace: '103' }]);
  });

  it('its secret written to the secrets file, then left unverified', async () => {
    const path = join(dir.dir, 'secrets.json');
    const row = await applyOne(t.api, { secrets: new SecretsFileWriter(path) });
    expect(row.secret).toBeUndefined();
    expect(factsOf(row)).toEqual([
      { kind: 'secret-written', path },
      { kind: 'unverified', endpoint: newest(), workspace: '103' },
    ]);
  });

  it('its secret the secrets file could not take: why, and the secret in the row', async () => {
    const full = {
      path: '/full/secrets.json',
      record: async () => Promise.reject(new Error('no space left on device')),
    } as unknown as SecretsFileWriter;
    const row = await applyOne(t.api, { secrets: full });
    expect(row.secret).toEqual(expect.any(String));
    expect(factsOf(row)).toEqual([
      { kind: 'secret-not-written', path: '/full/secrets.json', reason: 'no space left on device' },
      { kind: 'unverified', endpoint: newest(), workspace: '103' },
    ]);
  });

  it('whose answer was lost with its secret', async () => {
    const row = await applyOne(
      through({
        'webhooks.create': async (send) => {
          await send();
          throw new OutcomeUnknownError('POST', 'webhooks.create', new Error('socket hang up'));
        },
      }),
    );
    expect(row.secret).toBeUndefined();
    expect(factsOf(row)).toEqual([
      { kind: 'secret-lost', endpoint: newest(), workspace: '103' },
      { kind: 'unverified', endpoint: newest(), workspace: '103' },
    ]);
  });
});

describe('applyFleet: the facts of work stopped', () => {
  it('Ctrl-C before the work began: that alone', async () => {
    const stop = new AbortController();
    stop.abort();
    const row = await applyOne(t.api, { signal: stop.signal });
    expect(row.result).toBe('interrupted');
    expect(factsOf(row)).toEqual([{ kind: 'not-begun' }]);
  });

  it('Ctrl-C while the write was under way: that alone, with the action', async () => {
    const stop = new AbortController();
    const before = endpointsOf(t.sb, 103).length;
    const row = await applyOne(
      through({
        'webhooks.create': async () => {
          stop.abort();
          throw new Error('stopped');
        },
      }),
      { signal: stop.signal },
    );
    expect(row.result).toBe('interrupted');
    expect(factsOf(row)).toEqual([{ kind: 'write-interrupted', action: 'create' }]);
    expect(endpointsOf(t.sb, 103)).toHaveLength(before);
  });

  it('a service found unreachable: not started', async () => {
    const row = await applyOne(through({}, { unreachable: new Error('connect ECONNREFUSED') }));
    expect(row.result).toBe('not started');
    expect(factsOf(row)).toEqual([{ kind: 'unreachable' }]);
  });

  it("a wave after one that failed: the failed wave's number, and that it was not stopped", async () => {
    const { file, plan } = await newEndpoint([101, 102]);
    const waves = resolveWaves('1', parseWaves('1'), plan);
    const failing = through({
      'webhooks.create': async (send, spec) => (spec.workspaceId === '101' ? Promise.reject(new Error('no')) : send()),
    });
    const outcome = await applyWaves(failing, file, plan, waves, { ...quietApply(), begun: () => undefined });
    const [first, second] = outcome.rows;
    expect([first?.workspace_id, first?.result, second?.workspace_id, second?.result]).toEqual([
      101,
      'failed',
      102,
      'not started',
    ]);
    expect(factsOf(first!)).toEqual([]);
    expect(factsOf(second!)).toEqual([{ kind: 'earlier-wave-failed', wave: 1, stopped: false }]);
    expect(second).not.toHaveProperty('note');
  });
});
