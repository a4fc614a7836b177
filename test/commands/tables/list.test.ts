import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);

describe('edp tables list', () => {
  it("lists the workspace's tables", async () => {
    const r = await edp('tables', 'list');
    expect(r.code).toBe(0);
    const t = demo(sb).table;
    expect(r.stdout).toContain(`${t.id}\tGoogle Ads campaigns\t${t.sql_name}\tgoogle_ads`);
  });
});
