import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox, tokenFor } from '../../helpers.js';
import { builtRecipe, demo } from '../../fixtures/recipes.js';

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox({ buildSeconds: 0 });
});
afterEach(async () => {
  await sb.close();
});

const destinationOf = (ws: number) =>
  sb.store.state.destination_connections.find((d) => d.workspace_id === ws && d.status === 'active')!;
const codes = (r: { json(): any }) => r.json().map((f: any) => `${f.workspace_id}:${f.code}`);

describe('edp doctor', () => {
  it('finds nothing to do on the demo agency (exit 0)', async () => {
    const r = await cli(sb, ['doctor', '--all-workspaces']);
    expect(r.stdout).toContain('No finding');
    expect(r.code).toBe(0);
    const json = await cli(sb, ['doctor', '--all-workspaces', '--json']);
    expect(json.json()).toEqual([]);
  });

  it('refused credentials: could not check (exit 12), says to log in', async () => {
    const r = await cli(sb, ['doctor', '-w', '101', '--json'], { env: { EDP_PASSWORD: 'wrong' } });
    expect(r.code).toBe(12);
    expect(r.json()).toEqual([
      expect.objectContaining({
        workspace_id: null,
        check: 'credentials',
        code: 'authentication_failed',
        fix: expect.stringContaining('edp auth login'),
      }),
    ]);
  });

  it('an unreachable service is its own finding: names the address, no login advice (exit 12)', async () => {
    const r = await cli({ url: 'http://127.0.0.1:9' }, ['doctor', '-w', '101', '--json'], {
      env: { EDP_USERNAME: 'agency@sandbox.local', EDP_PASSWORD: 'sandbox' },
    });
    expect(r.code).toBe(12);
    const [f] = r.json();
    expect(f).toMatchObject({ check: 'service', code: 'service_unreachable', unchecked: true });
    expect(f.message).toContain('http://127.0.0.1:9');
    expect(f.fix).not.toContain('auth login');
    expect(f.fix).toContain('--base-url');
    const human = await cli({ url: 'http://127.0.0.1:9' }, ['doctor', '-w', '101'], {
      env: { EDP_USERNAME: 'agency@sandbox.local', EDP_PASSWORD: 'sandbox' },
    });
    expect(human.code).toBe(12);
    expect(human.stdout).toContain('service_unreachable');
    expect(human.stdout).not.toContain('no_credentials');
  });

  it('a degraded recipe is a finding with its reasons and a fix (exit 1)', async () => {
    const token = await tokenFor(sb, 103);
    const built = await builtRecipe(sb, token, 103, 4001, { google_ads: 'all' });
    // The build as the service reports one that left accounts out (set on the sandbox's store).
    const stored = sb.store.state.recipes.find((r) => r.id === built.id)!;
    stored.degraded = true;
    stored.not_delivered_reasons = ['account_disabled', 'timed_out'];
    const r = await cli(sb, ['doctor', '-w', '103', '--json']);
    expect(r.code).toBe(1);
    const degraded = r.json().find((f: any) => f.code === 'recipe_degraded');
    expect(degraded).toMatchObject({ check: 'recipes', workspace_id: 103 });
    expect(degraded.message).toContain('account_disabled, timed_out');
    expect(degraded.fix).toContain(`edp recipes build ${built.id} --wait -w 103`);
    const human = await cli(sb, ['doctor', '-w', '103']);
    expect(human.code).toBe(1);
    expect(human.stderr).not.toContain('nothing needs action');
  });

  it('a workspace whose token is refused', async () => {
    const r = await cli(sb, ['doctor', '-w', '101,999', '--json']);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(['999:token_refused']);
    expect(r.json()[0].fix).toContain('edp workspaces list');
  });

  it('no active destination, and an active destination that cannot host recipes', async () => {
    expect(
      (
        await http(sb, 'PATCH', `/_sandbox/destination-connections/${destinationOf(101).id}`, {
          body: { status: 'inactive' },
        })
      ).status,
    ).toBe(200);
    const token = await tokenFor(sb, 102);
    await builtRecipe(sb, token, 102, 4001, { google_ads: 'all' });
    await http(sb, 'PATCH', `/_sandbox/destination-connections/${destinationOf(102).id}`, {
      body: { destination_name: 'sftp' },
    });
    const r = await cli(sb, ['doctor', '-w', '101,102,103', '--json']);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(['101:no_active_destination', '102:destination_not_supported']);
    for (const f of r.json()) expect(f.fix).toContain('edp destinations connections create --destination s3');
  });

  it('recipes whose accounts went inactive or whose connection was deleted', async () => {
    const token = await tokenFor(sb, 101);
    const { id } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all', facebook_ads: 'all' });
    const gone = demo(sb, 101, 'google_ads').accounts[0]!;
    expect((await http(sb, 'PATCH', `/_sandbox/accounts/${gone}`, { body: { is_active: false } })).status).toBe(200);
    expect(
      (await http(sb, 'DELETE', `/api/v3/connections/${demo(sb, 101, 'facebook_ads').connection}`, { token })).status,
    ).toBe(204);
    const r = await cli(sb, ['doctor', '-w', '101', '--json']);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(['101:connection_deleted', '101:inactive_accounts']);
    const [deleted, inactive] = r.json();
    expect(String(deleted.recipe_id)).toBe(id);
    expect(deleted.fix).toContain('edp iframe-url --type datasource --name facebook_ads -w 101');
    expect(inactive.message).toContain(`${gone} "`);
    expect(inactive.fix).toContain(`edp recipes build ${id} -w 101`);
  });

  it('a recipe configured with old v3 account keys: not to be redeployed, support gets the recipe id and a trace id', async () => {
    const token = await tokenFor(sb, 101);
    const { id } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all' });
    expect((await http(sb, 'POST', '/_sandbox/recipes/legacy-keys', { body: { recipe_id: id } })).status).toBe(200);
    const r = await cli(sb, ['doctor', '-w', '101', '--json']);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(['101:legacy_account_keys']);
    const [f] = r.json();
    expect(f.trace_id).toMatch(/\S+/);
    expect(f.message).toContain('do not delete and redeploy');
    expect(f.fix).toBe(`contact support with recipe id ${id} and trace id ${f.trace_id}`);
    expect(r.stdout).toContain(`"recipe_id": ${id}`);
  });

  it('unverified endpoints and subscriptions to silent event types', async () => {
    const token = await tokenFor(sb, 103);
    const made = await http(sb, 'POST', '/api/v3/webhook_endpoints/', {
      token,
      body: {
        url: 'https://hooks.example.com/a',
        event_types: ['load_completed', 'account_created', 'connection_created'],
      },
    });
    expect(made.status).toBe(201);
    const r = await cli(sb, ['doctor', '-w', '103', '--json']);
    expect(r.code).toBe(1);
    expect(codes(r)).toEqual(['103:webhook_unverified', '103:silent_event_subscription']);
    const [unverified, silent] = r.json();
    expect(unverified.fix).toContain(`edp webhooks verify ${made.body.id} -w 103`);
    expect(silent.message).toContain('account_created, connection_created');
    expect(silent.fix).toContain(`edp webhooks update ${made.body.id} --events load_completed -w 103`);
    const human = await cli(sb, ['doctor', '-w', '103']);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('fix: edp webhooks verify');
  });

  it('refuses -w with --all-workspaces before sending anything (exit 2)', async () => {
    const r = await cli({ url: 'http://127.0.0.1:9' }, ['doctor', '-w', '101', '--all-workspaces']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--all-workspaces');
  });
});
