import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox, tokenFor } from '../../helpers.js';
import { V31, createRecipe, resetRecipes } from '../../fixtures/recipes.js';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
  token = await tokenFor(sb, 101);
});
afterAll(() => sb.close());
beforeEach(() => resetRecipes(sb));

const W = ['-w', '101'];

describe('edp recipes delete', () => {
  it('needs --yes off a terminal; deletes with it; a second delete is exit 5', async () => {
    const id = await createRecipe(sb, token, 4001);
    const refused = await cli(sb, ['recipes', 'delete', id, ...W]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(sb.store.state.recipes).toHaveLength(1);
    const done = await cli(sb, ['recipes', 'delete', id, ...W, '--yes']);
    expect(done.code).toBe(0);
    expect(sb.store.state.recipes).toHaveLength(0);
    const again = await cli(sb, ['recipes', 'delete', id, ...W, '--yes']);
    expect(again.code).toBe(5);
  });

  it('500 delete_incomplete is exit 1 with the recipe id', async () => {
    const id = await createRecipe(sb, token, 4001);
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { delete_incomplete: 1 } });
    const r = await cli(sb, ['recipes', 'delete', id, ...W, '--yes', '--json']);
    expect(r.code).toBe(1);
    expect(r.errorJson().error).toMatchObject({ status: 500, code: 'delete_incomplete' });
    expect(r.stderr).toContain(`"recipe_id":${id}`);
  });

  it("another workspace's recipe is exit 5 (v3.1 answers 404)", async () => {
    const id = await createRecipe(sb, token, 4001);
    const r = await cli(sb, ['recipes', 'get', id, '-w', '102']);
    expect(r.code).toBe(5);
    expect((await http(sb, 'GET', `${V31}${id}/`, { token })).status).toBe(200);
  });
});
