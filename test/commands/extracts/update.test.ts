import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { created } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp extracts update', () => {
  it('updates only what the flags name', async () => {
    const e = await created(t);
    const r = await t.edp(
      'extracts',
      'update',
      String(e.id),
      '--fields',
      'spend',
      '--additional-params',
      '{"attribution":"1d"}',
      '--json',
    );
    expect(r.code).toBe(0);
    expect(r.json().template_settings).toMatchObject({
      fields: ['date', 'campaign_id', 'campaign_name', 'spend'],
      additional_params: { attribution: '1d' },
    });
    expect(r.json().title).toBe(e.title);
    expect((await t.edp('extracts', 'update', String(e.id))).code).toBe(2);
    const unknown = await t.edp('extracts', 'update', String(e.id), '--fields', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('nope');
  });
});
