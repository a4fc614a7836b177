import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cli, control, useSandbox } from '../../helpers.js';

/**
 * A bulk action stopped by Ctrl-C, or whose output is closed (docs/faults.md), as apply is: what
 * is under way ends, nothing more starts after Ctrl-C, the rows say what landed; a closed pipe
 * after the first change lets the run finish and exits 141. Every load of the three workspaces is
 * paused and unpaused; the clock stands still.
 */
const t = useSandbox({ buildSeconds: 60 });

const paused = () =>
  t.sb.store.state.loads
    .filter((l) => l.is_paused)
    .map((l) => l.id)
    .sort();

beforeAll(async () => {
  await control(t.sb, 'PUT', '/snapshots/start');
});
beforeEach(async () => {
  await control(t.sb, 'POST', '/snapshots/start/restore');
});

describe('a bulk action stopped', () => {
  it('Ctrl-C after the first workspace: the rest is not started, the rows say so, exit 130', async () => {
    const stop = new AbortController();
    const r = await cli(t.sb, ['loads', 'pause', '-w', '101,102,103', '--concurrency', '1', '--yes'], {
      signal: stop.signal,
      onStderr: (all) => {
        if (all.includes('[101] ✓')) stop.abort(Object.assign(new Error('interrupted'), { name: 'InterruptedError' }));
      },
    });
    expect(r.code).toBe(130);
    expect(paused()).toEqual([8001]);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t').slice(3)),
    ).toEqual([
      ['ok', 'paused'],
      ['not started', 'stopped before it began: nothing was sent'],
      ['not started', 'stopped before it began: nothing was sent'],
    ]);
  });

  it('Ctrl-C while the items are read: nothing sent, nothing printed, exit 130', async () => {
    await control(t.sb, 'DELETE', '/requests');
    const stop = new AbortController();
    stop.abort(Object.assign(new Error('interrupted'), { name: 'InterruptedError' }));
    const r = await cli(t.sb, ['loads', 'pause', '-w', '101,102,103', '--yes'], { signal: stop.signal });
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('could not be read');
    expect(paused()).toEqual([]);
  });

  for (const lines of [0, 1]) {
    it(`\`2>&1 | head -${lines}\` once the changes began: the run goes on to its end, exit 141`, async () => {
      const r = await cli(t.sb, ['loads', 'pause', '-w', '101,102,103', '--concurrency', '1', '--yes'], {
        bothLines: lines,
      });
      expect(paused()).toEqual([8001, 8002, 8003]);
      expect(r.code).toBe(141);
    });
  }

  it('--json with stdout closed: every change made, exit 141', async () => {
    const r = await cli(t.sb, ['loads', 'pause', '--all-workspaces', '--yes', '--json'], { stdoutLines: 0 });
    expect(paused()).toEqual([8001, 8002, 8003]);
    expect(r.code).toBe(141);
  });

  it('a service found unreachable: the workspaces after it are not started, exit 1', async () => {
    try {
      const r = await cli(t.sb, ['loads', 'pause', '-w', '101,102,103', '--concurrency', '1', '--yes'], {
        // Once the first workspace is done, every connection drops before its answer (as
        // --reset-rate 1), at once: the next write fails for a network reason after its retries.
        onStderr: (all) => {
          if (all.includes('[101] ✓')) t.sb.store.opts.resetRate = 1;
        },
      });
      expect(r.code).toBe(1);
      const rows = r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t'));
      expect(rows.map((x) => [x[0], x[3]])).toEqual([
        ['101', 'ok'],
        ['102', 'failed'],
        ['103', 'not started'],
      ]);
      expect(rows[2]![4]).toContain('found unreachable in this run');
      expect(rows[2]![4]).toContain('nothing was sent for it');
      expect(t.sb.store.state.loads.find((l) => l.id === 8003)!.is_paused).toBe(false);
    } finally {
      t.sb.store.opts.resetRate = 0;
    }
  });
});
