import { beforeEach, describe, expect, it } from 'vitest';
import { http, tokenFor } from '../../helpers.js';
import { createRecipe } from '../../fixtures/recipes.js';
import { useRecipeSandbox } from './fixtures.js';

const t = useRecipeSandbox();
let token: string;
beforeEach(async () => {
  token = await tokenFor(t.sb, 101);
});

describe('edp recipes create', () => {
  it('creates a recipe; its id beyond 2^53 round-trips exactly through get and list', async () => {
    const created = await t.edp('recipes', 'create', '--template', '4001', '--title', 'Paid media', '--json');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/"recipe_id": 9007199254740993/);
    const got = await t.edp('recipes', 'get', '9007199254740993', '--json');
    expect(got.stdout).toMatch(/"recipe_id": 9007199254740993,/);
    const listed = await t.edp('recipes', 'list');
    // Piped: the raw state, empty when never built (on a terminal: "not built").
    expect(listed.stdout.split('\t').slice(0, 4)).toEqual(['9007199254740993', 'Paid media', '4001', '']);
  });

  it('maps create refusals: recipe_already_exists exit 6 with the ids, template_not_found exit 2, template_not_deployable exit 6', async () => {
    const id = await createRecipe(t.sb, token, 4001);
    const dup = await t.edp('recipes', 'create', '--template', '4001', '--title', 'x');
    expect(dup.code).toBe(6);
    expect(dup.stderr).toContain('409 recipe_already_exists');
    expect(dup.stderr).toContain(`existing_recipe_ids: [${id}]`);
    const unknown = await t.edp('recipes', 'create', '--template', '999', '--title', 'x', '--json');
    expect(unknown.code).toBe(2);
    expect(unknown.errorJson().error).toMatchObject({
      status: 400,
      code: 'template_not_found',
      details: { template_id: 999 },
    });
    const draft = await t.edp('recipes', 'create', '--template', '4007', '--title', 'x');
    expect(draft.code).toBe(6);
    expect(draft.stderr).toContain('template_not_deployable');
  });

  it('view_name_taken is exit 6 naming the output table and the recipe holding it', async () => {
    const holder = await createRecipe(t.sb, token, 4001);
    const r = await t.edp('recipes', 'create', '--template', '4006', '--title', 'copy');
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('409 view_name_taken');
    expect(r.stderr).toContain('view_name: paid_media_performance');
    expect(r.stderr).toContain(`conflicting_recipe_ids: [${holder}]`);
  });

  it('destination_not_supported is exit 6', async () => {
    const dc = t.sb.store.state.destination_connections.find((d) => d.workspace_id === 101)!;
    dc.destination_name = 'sftp';
    try {
      const r = await t.edp('recipes', 'create', '--template', '4001', '--title', 'x');
      expect(r.code).toBe(6);
      expect(r.stderr).toContain('409 destination_not_supported');
    } finally {
      dc.destination_name = 's3';
    }
  });

  it('repeats a create refused with data_table_reservation_failed (nothing was created)', async () => {
    await http(t.sb, 'POST', '/_sandbox/recipes/faults', { body: { data_table_reservation_failed: 1 } });
    const r = await t.edp('recipes', 'create', '--template', '4001', '--title', 'x', '--json');
    expect(r.code).toBe(0);
    expect(t.sb.store.state.recipes).toHaveLength(1);
  });

  it('refuses a bad title or template id before sending (exit 2)', async () => {
    const r = await t.edp('recipes', 'create', '--template', '4001', '--title', '');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--title');
    const template = await t.edp('recipes', 'create', '--template', 'abc', '--title', 'x');
    expect(template.code).toBe(2);
    expect(template.stderr).toContain('--template');
    expect(t.sb.store.state.recipes).toHaveLength(0);
  });
});
