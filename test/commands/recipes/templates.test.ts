import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, control, sandbox } from '../../helpers.js';
import { resetRecipes } from '../../fixtures/recipes.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());
beforeEach(async () => {
  resetRecipes(sb);
  await control(sb, 'PATCH', '/agency', { recipe_pipeline: true });
});

const W = ['-w', '101'];

describe('edp recipes templates / template', () => {
  it('lists templates as JSON and filters by --search', async () => {
    const r = await cli(sb, ['recipes', 'templates', ...W, '--search', 'funnel', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((t: any) => t.id)).toEqual([4003]);
    const piped = await cli(sb, ['recipes', 'templates', ...W]);
    expect(piped.stdout.split('\n')[0]).toBe(
      '4001\tPaid Media Performance\tprogressive\timprovado\tgoogle_ads, facebook_ads, linkedin_ads\tPaid media',
    );
  });

  it('refuses a blank --search before sending (exit 2)', async () => {
    const r = await cli(sb, ['recipes', 'templates', ...W, '--search', ' ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--search');
  });

  it('shows one template; an unknown one is exit 5 with the code and trace id', async () => {
    const r = await cli(sb, ['recipes', 'template', '4003', ...W], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.stdout).toMatch(/Build mode\s+progressive/);
    expect(r.stdout).toMatch(/Output columns\s+\(none listed\)/);
    const missing = await cli(sb, ['recipes', 'template', '999', ...W]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/404 not_found/);
    expect(missing.stderr).toMatch(/trace id: [0-9a-f]+/);
  });

  it('needs a workspace (exit 2) and answers 403 as exit 4 when the agency has the pipeline off', async () => {
    const none = await cli(sb, ['recipes', 'templates']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--workspace');
    await control(sb, 'PATCH', '/agency', { recipe_pipeline: false });
    const off = await cli(sb, ['recipes', 'list', ...W]);
    expect(off.code).toBe(4);
    expect(off.stderr).toMatch(/403 permission_denied/);
  });
});
