import { describe, expect, it } from 'vitest';
import { parse, settleClock, useSandbox } from '../../helpers.js';
import { created } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

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
      opts: { wait: true, waitTimeout: '1m', pollInterval: '10ms', args: [['40001']] },
      globals: { workspace: '101' },
    });
  });

  it('runs and waits for the run to complete', async () => {
    const e = await created(t);
    // Its first run starts at creation; a second is refused while that one goes.
    await settleClock(t.sb);
    expect(t.sb.store.state.extracts.find((x) => x.id === e.id)!.status).toBe('completed');
    const r = await t.edp('extracts', 'run', String(e.id), '--wait', '--wait-timeout', '10s');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('completed');
    // The final object on stdout, as every waiting command prints it: piped field<TAB>value lines.
    expect(r.stdout).toMatch(new RegExp(`^id\t${e.id}$`, 'm'));
    expect(r.stdout).toMatch(/^status\tcompleted$/m);
    const json = await t.edp('extracts', 'run', String(e.id), '--wait', '--wait-timeout', '10s', '--json');
    expect(json.json()).toMatchObject({ id: e.id, status: 'completed' });
  });

  it('refuses --wait-timeout without --wait', async () => {
    const r = await t.edp('extracts', 'run', '1', '--wait-timeout', '1m');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--wait');
  });

  it('refuses --poll-interval without --wait, and a bad one (exit 2)', async () => {
    const alone = await t.edp('extracts', 'run', '1', '--poll-interval', '1s');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--poll-interval works with --wait');
    const bad = await t.edp('extracts', 'run', '1', '--wait', '--poll-interval', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--poll-interval');
  });
});
