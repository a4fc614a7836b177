import { beforeEach, describe, expect, it } from 'vitest';
import { cli, http, tokenFor } from '../../helpers.js';
import { V31, createRecipe } from '../../fixtures/recipes.js';
import { useRecipeSandbox } from './fixtures.js';

const t = useRecipeSandbox();
let token: string;
beforeEach(async () => {
  token = await tokenFor(t.sb, 101);
});

describe('edp recipes delete', () => {
  it('needs --yes off a terminal; deletes with it; a second delete is exit 5', async () => {
    const id = await createRecipe(t.sb, token, 4001);
    const refused = await t.edp('recipes', 'delete', id);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(t.sb.store.state.recipes).toHaveLength(1);
    const done = await t.edp('recipes', 'delete', id, '--yes');
    expect(done.code).toBe(0);
    expect(t.sb.store.state.recipes).toHaveLength(0);
    const again = await t.edp('recipes', 'delete', id, '--yes');
    expect(again.code).toBe(5);
  });

  it('500 delete_incomplete is exit 1 with the recipe id', async () => {
    const id = await createRecipe(t.sb, token, 4001);
    await http(t.sb, 'POST', '/_sandbox/recipes/faults', { body: { delete_incomplete: 1 } });
    const r = await t.edp('recipes', 'delete', id, '--yes', '--json');
    expect(r.code).toBe(1);
    expect(r.errorJson().error).toMatchObject({ status: 500, code: 'delete_incomplete' });
    expect(r.stderr).toContain(`"recipe_id":${id}`);
  });

  it("another workspace's recipe is exit 5 (v3.1 answers 404)", async () => {
    const id = await createRecipe(t.sb, token, 4001);
    const r = await cli(t.sb, ['recipes', 'get', id, '-w', '102']);
    expect(r.code).toBe(5);
    expect((await http(t.sb, 'GET', `${V31}${id}/`, { token })).status).toBe(200);
  });
});
