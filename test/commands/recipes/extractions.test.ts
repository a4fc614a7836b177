import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox, tokenFor } from '../../helpers.js';
import { builtRecipe, resetRecipes } from '../../fixtures/recipes.js';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
  token = await tokenFor(sb, 101);
});
afterAll(() => sb.close());
beforeEach(() => resetRecipes(sb));

const W = ['-w', '101'];

describe('edp recipes extractions', () => {
  it('prints the check; a destination that cannot report is exit 1 (501), none active is exit 6', async () => {
    const { id } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all' });
    const r = await cli(sb, ['recipes', 'extractions', id, ...W, '--json']);
    expect(r.json()).toMatchObject({
      all_tables_exist: true,
      tables: [{ data_source: 'google_ads', table_exists: true }],
    });
    const human = await cli(sb, ['recipes', 'extractions', id, ...W]);
    expect(human.stderr).toContain('All tables exist.');
    // 503 destination_unavailable: a read, repeated after Retry-After
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { destination_unavailable: 1 } });
    const retried = await cli(sb, ['recipes', 'extractions', id, ...W, '--json']);
    expect(retried.code).toBe(0);
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { destination_unavailable: 9 } });
    const down = await cli(sb, ['recipes', 'extractions', id, ...W]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('503 destination_unavailable');
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { destination_unavailable: 0 } });
    const s3 = sb.store.state.destinations.find((d) => d.name === 's3')!;
    const dc = sb.store.state.destination_connections.find((d) => d.workspace_id === 101)!;
    try {
      s3.reports_tables = false;
      const cannot = await cli(sb, ['recipes', 'extractions', id, ...W]);
      expect(cannot.code).toBe(1);
      expect(cannot.stderr).toContain('501 destination_check_unsupported');
      s3.reports_tables = true;
      dc.status = 'paused';
      const none = await cli(sb, ['recipes', 'extractions', id, ...W]);
      expect(none.code).toBe(6);
      expect(none.stderr).toContain('no_active_destination');
    } finally {
      s3.reports_tables = true;
      dc.status = 'active';
    }
  });
});
