import { beforeAll, describe, expect, it } from 'vitest';
import { tokenFor, useSandbox } from '../../helpers.js';
import { count, create, W } from './fixtures.js';

const t = useSandbox({}, W);
let token: string;
beforeAll(async () => {
  token = await tokenFor(t.sb, 102);
});

describe('edp webhooks list', () => {
  it('lists every endpoint of the workspace, --limit caps it', async () => {
    await create(t);
    await create(t);
    const all = await t.edp('webhooks', 'list', '--json');
    expect(all.code).toBe(0);
    expect(all.json().length).toBe(await count(t, token));
    expect(all.json().every((e: any) => e.secret === undefined)).toBe(true);
    const one = await t.edp('webhooks', 'list', '--limit', '1', '--ndjson');
    expect(one.stdout.trim().split('\n')).toHaveLength(1);
    const rows = await t.edp('webhooks', 'list');
    expect(rows.stdout.split('\n')[0]).toMatch(/^\d+\tunverified\thttps:\/\//);
  });
});
