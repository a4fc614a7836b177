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

async function created(...extra: string[]) {
  const d = demo(sb);
  const r = await edp(
    'extracts',
    'create',
    '--template',
    String(d.template('facebook_ads', false).id),
    '--account',
    String(d.accounts('facebook_ads')[0]!.id),
    '--json',
    ...extra,
  );
  expect(r.code).toBe(0);
  return r.json();
}

describe('edp extracts pause and unpause', () => {
  it('pauses (then run is a conflict: exit 6) and unpauses', async () => {
    const e = await created();
    const paused = await edp('extracts', 'pause', String(e.id), '--json');
    expect(paused.json()).toMatchObject({ is_paused: true, pause_reason: 'manual' });
    const run = await edp('extracts', 'run', String(e.id));
    expect(run.code).toBe(6);
    expect(run.stderr).toContain('409');
    const unpaused = await edp('extracts', 'unpause', String(e.id));
    expect(unpaused.code).toBe(0);
    expect(unpaused.stderr).toContain('unpaused');
  });
});
