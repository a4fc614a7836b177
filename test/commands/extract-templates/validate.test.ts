import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp extract-templates validate', () => {
  it('validates accounts with settings', async () => {
    const d = demo(t.sb);
    const [a, b] = d.accounts('google_ads');
    const r = await t.edp(
      'extract-templates',
      'validate',
      String(d.template('google_ads', true).id),
      '--accounts',
      `${a!.id},${b!.id}`,
      '--fields',
      'date,spend',
      '--additional-params',
      '{"attribution":"7d"}',
      '--sync-historical-data',
      '2024-01-01',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`valid for accounts ${a!.id}, ${b!.id}`);
  });

  it('maps accounts of several connections (400) to exit 2', async () => {
    const d = demo(t.sb);
    const r = await t.edp(
      'extract-templates',
      'validate',
      String(d.template('google_ads', true).id),
      '--accounts',
      `${d.accounts('google_ads')[0]!.id},${d.accounts('facebook_ads')[0]!.id}`,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('400');
  });

  it.each([
    [['--accounts', 'abc'], '--accounts'],
    [['--accounts', '1', '--additional-params', '{nope'], '--additional-params'],
    [['--accounts', '1', '--additional-params', '[1]'], '--additional-params'],
    [['--accounts', '1', '--sync-from-date', '2024-02-30'], '--sync-from-date'],
    [['--accounts', '1', '--fields', 'a,a'], '--fields'],
  ])('refuses bad validate input %j locally (exit 2)', async (args, flag) => {
    const r = await t.edp('extract-templates', 'validate', '301', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(flag);
  });

  it('reads settings from a file', async () => {
    const d = demo(t.sb);
    const withFile = await cli(
      t.sb,
      [
        'extract-templates',
        'validate',
        String(d.template('google_ads', true).id),
        '--accounts',
        String(d.accounts('google_ads')[0]!.id),
        '--settings-file',
        '-',
        '--json',
        '-w',
        '101',
      ],
      {
        stdin: 'fields: [date, ad_name, spend]\ndynamic_fields: [custom_label]\n',
      },
    );
    expect(withFile.code).toBe(0);
    expect(withFile.json().template_settings.dynamic_fields).toEqual(['custom_label']);
    const bad = await cli(
      t.sb,
      ['extract-templates', 'validate', '301', '--accounts', '1', '--settings-file', '-', '-w', '101'],
      { stdin: 'colour: red\n' },
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'standard input:1:1: colour: unknown key (known: fields, additional_params, dynamic_fields, custom_filters, sync_historical_data)',
    );
  });
});
