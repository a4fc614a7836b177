import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

describe('edp agency-recipes list', () => {
  it('lists agency recipes', async () => {
    const r = await cli(sb, ['agency-recipes', 'list', '--json']);
    expect(r.json().map((x: any) => x.id)).toEqual([501, 502, 503]);
  });
});
