import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);

describe('edp extract-templates setting-options', () => {
  it('lists custom setting options grouped by account', async () => {
    const d = demo(sb);
    const remote = d.accounts('google_ads')[0]!.account_id;
    const r = await edp(
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
    const piped = await edp(
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
