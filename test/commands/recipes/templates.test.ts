import { beforeEach, describe, expect, it } from 'vitest';
import { cli, control } from '../../helpers.js';

import { useRecipeSandbox, W } from './fixtures.js';

const t = useRecipeSandbox();
beforeEach(() => control(t.sb, 'PATCH', '/agency', { recipe_pipeline: true }));

describe('edp recipes templates / template', () => {
  it('lists templates as JSON and filters by --search', async () => {
    const r = await t.edp('recipes', 'templates', '--search', 'funnel', '--json');
    expect(r.code).toBe(0);
    expect(r.json().map((t: any) => t.id)).toEqual([4003]);
    const piped = await t.edp('recipes', 'templates');
    expect(piped.stdout.split('\n')[0]).toBe(
      '4001\tPaid Media Performance\tprogressive\timprovado\tgoogle_ads, facebook_ads, linkedin_ads\tPaid media',
    );
  });

  it('refuses a blank --search before sending (exit 2)', async () => {
    const r = await t.edp('recipes', 'templates', '--search', ' ');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--search');
  });

  it('shows one template; an unknown one is exit 5 with the code and trace id', async () => {
    const r = await cli(t.sb, ['recipes', 'template', '4003', ...W], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.stdout).toMatch(/build mode\s+progressive/);
    expect(r.stdout).toMatch(/output columns\s+\(none listed\)/);
    // Each column's type is set apart from its name.
    const listed = await cli(t.sb, ['recipes', 'template', '4001', ...W], { tty: true, env: { NO_COLOR: '1' } });
    expect(listed.stdout).toMatch(/output columns\s+\w+ \(\w+\), \w+ \(\w+\)/);
    const missing = await t.edp('recipes', 'template', '999');
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/404 not_found/);
    expect(missing.stderr).toMatch(/trace id: [0-9a-f]+/);
  });

  it('needs a workspace (exit 2) and answers 403 as exit 4 when the agency has the pipeline off', async () => {
    const none = await cli(t.sb, ['recipes', 'templates']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--workspace');
    await control(t.sb, 'PATCH', '/agency', { recipe_pipeline: false });
    const off = await t.edp('recipes', 'list');
    expect(off.code).toBe(4);
    expect(off.stderr).toMatch(/403 permission_denied/);
  });
});
