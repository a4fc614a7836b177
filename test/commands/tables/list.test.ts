import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp tables list', () => {
  it("lists the workspace's tables", async () => {
    const r = await t.edp('tables', 'list');
    expect(r.code).toBe(0);
    const table = demo(t.sb).table;
    expect(r.stdout).toContain(`${table.id}\tGoogle Ads campaigns\t${table.sql_name}\tgoogle_ads`);
  });
});
