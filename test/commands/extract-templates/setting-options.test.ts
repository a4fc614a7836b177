import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp extract-templates setting-options', () => {
  it('lists custom setting options grouped by account', async () => {
    const d = demo(t.sb);
    const remote = d.accounts('google_ads')[0]!.account_id;
    const r = await t.edp(
      'extract-templates',
      'setting-options',
      '--data-source',
      'google_ads',
      '--connection',
      String(d.connection('google_ads').id),
      '--accounts',
      remote,
      '--search',
      'lead',
      '--json',
    );
    expect(r.code).toBe(0);
    expect(r.json()).toEqual([
      {
        account_id: remote,
        account_name: expect.any(String),
        options: [{ value: `${remote}:lead_form`, title: 'Lead form' }],
      },
    ]);
    const piped = await t.edp(
      'extract-templates',
      'setting-options',
      '--data-source',
      'google_ads',
      '--connection',
      String(d.connection('google_ads').id),
      '--accounts',
      remote,
    );
    expect(piped.stdout.split('\n')[0]).toContain(`${remote}:purchase`);
  });
});
