import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../helpers.js';

// A service that answers nothing: the sandbox holds every answer (latency on its manual clock,
// which stands still), so a request ends only by the client's own --timeout.
const t = useSandbox({ latencyMs: 24 * 3600_000 });

describe('a request that runs out of --timeout', () => {
  it('advises a longer --timeout, naming the one in use, not checking the address', async () => {
    const r = await cli(t.sb, ['--timeout', '1ms', 'workspaces', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('timed out waiting for the service');
    expect(r.stderr).toContain(
      'hint: no answer came within --timeout 1ms; if the service is slow rather than unreachable, pass a longer --timeout (default 60s)',
    );
    expect(r.stderr).not.toContain('--base-url');
  });
});
