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

async function created(...extra: string[]) {
  const d = demo(sb);
  const r = await edp(
    'extracts',
    'create',
    '--template',
    String(d.template('facebook_ads', false).id),
    '--account',
    String(d.accounts('facebook_ads')[0]!.id),
    '--json',
    ...extra,
  );
  expect(r.code).toBe(0);
  return r.json();
}

describe('edp extracts update', () => {
  it('updates only what the flags name', async () => {
    const e = await created();
    const r = await edp(
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
    expect((await edp('extracts', 'update', String(e.id))).code).toBe(2);
    const unknown = await edp('extracts', 'update', String(e.id), '--fields', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('nope');
  });
});
