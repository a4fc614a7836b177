import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp destinations list', () => {
  it('lists destinations', async () => {
    const r = await t.edp('destinations', 'list', '--json');
    expect(r.json().map((d: any) => d.name)).toEqual(['bigquery', 's3', 'sftp']);
  });
});
