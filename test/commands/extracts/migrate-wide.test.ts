import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp extracts migrate-wide', () => {
  it('migrates an extract to a wide template; repeating it is a conflict (exit 6)', async () => {
    const source = t.sb.store.state.extracts.find(
      (e) => e.workspace_id === 101 && e.template_id === demo(t.sb).template('google_ads', false).id && !e.is_paused,
    )!;
    const r = await t.edp('extracts', 'migrate-wide', String(source.id), '--fields', 'date,ad_name,spend', '--json');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      migrated_from_id: source.id,
      template: { is_wide_template: true },
      template_settings: { fields: ['date', 'ad_name', 'spend'] },
    });
    expect(t.sb.store.state.extracts.find((e) => e.id === source.id)!.pause_reason).toBe('migrated');
    const again = await t.edp('extracts', 'migrate-wide', String(source.id));
    expect(again.code).toBe(6);
    expect(again.stderr).toContain('already migrated');
  });
});
