import { describe, expect, it } from 'vitest';
import { cli, tokenFor } from '../../helpers.js';
import { createRecipe } from '../../fixtures/recipes.js';
import { FAST, useFiles } from '../../fixtures/files.js';
import { createConnection } from '../../../src/sandbox/pages/connect.js';
import { useRecipeSandbox } from './fixtures.js';

/**
 * A workspace with two connections of a data source: deploy (one workspace or a fleet), the
 * fleet's plan and apply, and configure choose the connection by one rule, and when they
 * cannot, the way out they name works as written.
 */

const t = useRecipeSandbox();
const file = useFiles('edp-connection-choice-');

const DEPLOY = [
  'recipes',
  'deploy',
  '--all-workspaces',
  '--template',
  'Paid Media Performance',
  '--data-source',
  'google_ads',
  '--accounts',
  'all-active',
  ...FAST,
];

const FLEET = `workspaces: all
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [all-active]
`;

/** A second google_ads connection in workspace 101, as a used external authentication link makes it. */
function secondConnection(): string {
  const c = createConnection(t.sb.store, {
    workspaceId: 101,
    datasourceName: 'google_ads',
    title: 'Google Ads (new client)',
    connectedBy: 'client@example.com',
    accounts: [{ remote: '7000001', title: 'Client account 1' }],
  });
  return String(c.id);
}

const recipeOf = (ws: number) => t.sb.store.state.recipes.find((r) => r.workspace_id === ws && !r.intermediate);
const connectionsOf = (ws: number) => recipeOf(ws)!.connections.map((c) => String(c.connection_id));
const firstConnection = () =>
  String(t.sb.store.state.connections.find((c) => c.workspace_id === 101 && c.datasource_name === 'google_ads')!.id);

/** The words of the first `edp …` command quoted in `text`, without `edp`. */
function suggested(text: string, verb: string): string[] {
  const m = new RegExp(`\`edp (${verb} [^\`]*)\``).exec(text);
  expect(m, `a suggested \`edp ${verb} …\` in:\n${text}`).not.toBeNull();
  return m![1]!.split(' ');
}

describe('a data source with two connections in a workspace', () => {
  it("the recipe's connection is kept: a fleet deploy agrees with apply once the recipe has one", async () => {
    const applied = await cli(t.sb, ['apply', '-f', file('fleet.yaml', FLEET), '--yes', ...FAST]);
    expect(applied.code, applied.stderr).toBe(0);
    const first = firstConnection();
    expect(connectionsOf(101)).toEqual([first]);
    secondConnection();

    const plan = await cli(t.sb, ['plan', '-f', file('fleet.yaml', FLEET), '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.json().workspaces[0]).toMatchObject({ workspace_id: 101, blocked: [] });

    const deploy = await cli(t.sb, DEPLOY);
    expect(deploy.code, deploy.stderr).toBe(0);
    expect(deploy.stderr).toContain(`[101] ✓ 4/7 google_ads: connection ${first},`);
    expect(connectionsOf(101)).toEqual([first]);
  });

  it('a fleet deploy names both connections and a command that settles it; deploying again then ends ready', async () => {
    const second = secondConnection();
    const deploy = await cli(t.sb, DEPLOY);
    expect(deploy.code).toBe(2);
    expect(deploy.stderr).toContain(
      `workspace 101 has 2 google_ads connections and the accounts resolve in both: ${firstConnection()} "Google Ads (Acme Retail)", ${second} "Google Ads (new client)"`,
    );
    expect(deploy.stderr).not.toContain('pass --connection');
    // The command named works as written, and the same fleet deploy then completes.
    const configure = await cli(t.sb, suggested(deploy.stderr, 'recipes configure'));
    expect(configure.code, configure.stderr).toBe(0);
    const again = await cli(t.sb, DEPLOY);
    expect(again.code, again.stderr).toBe(0);
    expect(connectionsOf(101)).toEqual([firstConnection()]);
    expect(recipeOf(101)!.state).toBe('ready_to_work');
  });

  it('plan names the file change that settles it, and apply with that file deploys the connection named', async () => {
    const second = secondConnection();
    const plan = await cli(t.sb, ['plan', '-f', file('fleet.yaml', FLEET), '--json']);
    const blocked = plan.json().workspaces[0].blocked;
    expect(blocked).toEqual([expect.objectContaining({ code: 'connection_ambiguous' })]);
    expect(blocked[0].message).toContain(`\`workspaces: [101]\``);
    expect(blocked[0].message).toContain(`\`connection: ${firstConnection()}\``);
    expect(blocked[0].message).toContain(`${second} "Google Ads (new client)"`);

    // The change the message describes, choosing the other connection.
    const changed = `workspaces: all
recipes:
  - template: Paid Media Performance
    workspaces: [101]
    sources:
      - data_source: google_ads
        connection: ${second}
        accounts: [all-active]
  - template: Paid Media Performance
    workspaces: [102, 103]
    sources:
      - data_source: google_ads
        accounts: [all-active]
`;
    const applied = await cli(t.sb, ['apply', '-f', file('split.yaml', changed), '--yes', ...FAST]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(connectionsOf(101)).toEqual([second]);
    // From then on the first file plans no change, and the fleet deploy keeps that connection.
    const after = await cli(t.sb, ['plan', '-f', file('fleet.yaml', FLEET), '--json']);
    expect(after.json().workspaces[0]).toMatchObject({ changes: [], blocked: [] });
    const deploy = await cli(t.sb, DEPLOY);
    expect(deploy.code, deploy.stderr).toBe(0);
    expect(connectionsOf(101)).toEqual([second]);
  });

  it('configure names the flag that settles it', async () => {
    const second = secondConnection();
    const id = await createRecipe(t.sb, await tokenFor(t.sb, 101), 4001);
    const r = await cli(t.sb, [
      '-w',
      '101',
      'recipes',
      'configure',
      id,
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`hint: pass --connection ${firstConnection()} or ${second}`);
  });
});
