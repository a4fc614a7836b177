import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);

describe('edp loads list and get', () => {
  it('lists and gets loads; 404 is exit 5', async () => {
    const list = await edp('loads', 'list', '--json');
    expect(list.json()).toHaveLength(1);
    const id = list.json()[0].id;
    const get = await edp('loads', 'get', String(id), '--json');
    expect(get.json()).toMatchObject({ id, status: 'active', last_run: null });
    expect((await edp('loads', 'get', '999999')).code).toBe(5);
  });
});
