import { beforeEach, describe, expect, it } from 'vitest';
import { http, tokenFor } from '../../helpers.js';
import { builtRecipe } from '../../fixtures/recipes.js';
import { useRecipeSandbox } from './fixtures.js';

const t = useRecipeSandbox();
let token: string;
beforeEach(async () => {
  token = await tokenFor(t.sb, 101);
});

describe('edp recipes extractions', () => {
  it('prints the check; a destination that cannot report is exit 1 (501), none active is exit 6', async () => {
    const { id } = await builtRecipe(t.sb, token, 101, 4001, { google_ads: 'all' });
    const r = await t.edp('recipes', 'extractions', id, '--json');
    expect(r.json()).toMatchObject({
      all_tables_exist: true,
      tables: [{ data_source: 'google_ads', table_exists: true }],
    });
    const human = await t.edp('recipes', 'extractions', id);
    expect(human.stderr).toContain('All tables exist.');
    // 503 destination_unavailable: a read, repeated after Retry-After
    await http(t.sb, 'POST', '/_sandbox/recipes/faults', { body: { destination_unavailable: 1 } });
    const retried = await t.edp('recipes', 'extractions', id, '--json');
    expect(retried.code).toBe(0);
    await http(t.sb, 'POST', '/_sandbox/recipes/faults', { body: { destination_unavailable: 9 } });
    const down = await t.edp('recipes', 'extractions', id);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('503 destination_unavailable');
    await http(t.sb, 'POST', '/_sandbox/recipes/faults', { body: { destination_unavailable: 0 } });
    const s3 = t.sb.store.state.destinations.find((d) => d.name === 's3')!;
    const dc = t.sb.store.state.destination_connections.find((d) => d.workspace_id === 101)!;
    try {
      s3.reports_tables = false;
      const cannot = await t.edp('recipes', 'extractions', id);
      expect(cannot.code).toBe(1);
      expect(cannot.stderr).toContain('501 destination_check_unsupported');
      s3.reports_tables = true;
      dc.status = 'paused';
      const none = await t.edp('recipes', 'extractions', id);
      expect(none.code).toBe(6);
      expect(none.stderr).toContain('no_active_destination');
    } finally {
      s3.reports_tables = true;
      dc.status = 'active';
    }
  });
});
