import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

describe('edp extract-templates preview', () => {
  it('previews rows as a table on a terminal and as JSON', async () => {
    const d = demo(sb);
    const args = [
      'extract-templates',
      'preview',
      String(d.template('google_ads', false).id),
      '--accounts',
      String(d.accounts('google_ads')[0]!.id),
      '-w',
      '101',
    ];
    const json = await cli(sb, [...args, '--json']);
    expect(json.json().rows).toHaveLength(5);
    const table = await cli(sb, args, { tty: true });
    expect(table.stdout).toContain('campaign_name');
  });
});
