import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox, waitUntil } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);

async function created(...extra: string[]) {
  const d = demo(sb);
  const r = await edp('extracts', 'create', '--template', String(d.template('facebook_ads', false).id), '--account', String(d.accounts('facebook_ads')[0]!.id), '--json', ...extra);
  expect(r.code).toBe(0);
  return r.json();
}

describe('edp extracts run', () => {
  it('runs and waits for the run to complete', async () => {
    const e = await created();
    // Its first run starts at creation; a second is refused while that one goes.
    await waitUntil(() => sb.store.state.extracts.find((x) => x.id === e.id)!.status !== 'running', { what: `extract ${e.id}'s first run to end` });
    const r = await edp('extracts', 'run', String(e.id), '--wait', '--wait-timeout', '10s');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('completed');
  });

  it('refuses --wait-timeout without --wait', async () => {
    const r = await edp('extracts', 'run', '1', '--wait-timeout', '1m');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--wait');
  });
});
