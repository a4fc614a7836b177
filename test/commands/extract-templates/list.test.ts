import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);

describe('edp extract-templates list', () => {
  it("lists a data source's templates", async () => {
    const r = await edp('extract-templates', 'list', '--data-source', 'google_ads', '--json');
    expect(r.code).toBe(0);
    expect(r.json().map((t: any) => t.title)).toEqual(['Google Ads Campaign performance', 'Google Ads Custom report']);
  });

  it("maps an unknown data source (400) to exit 2 with the service's message", async () => {
    const r = await edp('extract-templates', 'list', '--data-source', 'nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/400: Unknown data source "nope"/);
  });
});
