import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, parse, sandbox, waitUntil } from '../../helpers.js';
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

describe('edp extracts run', () => {
  it('parses the wait flags as its own options', async () => {
    const r = await parse([
      'extracts',
      'run',
      '40001',
      '--wait',
      '--wait-timeout',
      '1m',
      '--poll-interval',
      '10ms',
      '-w',
      '101',
    ]);
    expect(r.code).toBe(0);
    expect(r.parsed).toMatchObject({
      command: 'extracts run',
      opts: { wait: true, waitTimeout: '1m', pollInterval: '10ms', args: ['40001'] },
      globals: { workspace: '101' },
    });
  });

  it('runs and waits for the run to complete', async () => {
    const e = await created();
    // Its first run starts at creation; a second is refused while that one goes.
    await waitUntil(() => sb.store.state.extracts.find((x) => x.id === e.id)!.status !== 'running', {
      what: `extract ${e.id}'s first run to end`,
    });
    const r = await edp('extracts', 'run', String(e.id), '--wait', '--wait-timeout', '10s');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('completed');
  });

  it('refuses --wait-timeout without --wait', async () => {
    const r = await edp('extracts', 'run', '1', '--wait-timeout', '1m');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--wait');
  });

  it('refuses --poll-interval without --wait, and a bad one (exit 2)', async () => {
    const alone = await edp('extracts', 'run', '1', '--poll-interval', '1s');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--poll-interval works with --wait');
    const bad = await edp('extracts', 'run', '1', '--wait', '--poll-interval', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--poll-interval');
  });
});
