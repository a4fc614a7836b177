import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (argv: string[], opts: Parameters<typeof cli>[2] = {}) => cli(sb, [...argv, '-w', '101'], opts);

describe('edp destinations list', () => {
  it('lists destinations', async () => {
    const r = await edp(['destinations', 'list', '--json']);
    expect(r.json().map((d: any) => d.name)).toEqual(['bigquery', 's3', 'sftp']);
  });
});
