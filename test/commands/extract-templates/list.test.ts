import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp extract-templates list', () => {
  it("lists a data source's templates", async () => {
    const r = await t.edp('extract-templates', 'list', '--data-source', 'google_ads', '--json');
    expect(r.code).toBe(0);
    expect(r.json().map((t: any) => t.title)).toEqual(['Google Ads Campaign performance', 'Google Ads Custom report']);
  });

  it("maps an unknown data source (400) to exit 2 with the service's message", async () => {
    const r = await t.edp('extract-templates', 'list', '--data-source', 'nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/400: Unknown data source "nope"/);
  });
});
