import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

const t = useSandbox({ buildSeconds: 0 });

describe('edp extract-templates preview', () => {
  it('previews rows as a table on a terminal and as JSON', async () => {
    const d = demo(t.sb);
    const args = [
      'extract-templates',
      'preview',
      String(d.template('google_ads', false).id),
      '--accounts',
      String(d.accounts('google_ads')[0]!.id),
      '-w',
      '101',
    ];
    const json = await cli(t.sb, [...args, '--json']);
    expect(json.json().rows).toHaveLength(5);
    const table = await cli(t.sb, args, { tty: true });
    expect(table.stdout).toContain('campaign_name');
  });
});
