import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';
import { destinationConnections } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 });
const { edp, lake } = destinationConnections(t);

describe('edp destinations connections recheck', () => {
  it('reports a failing check, and recheck shows the status', async () => {
    const id = await lake();
    const bad = await edp([
      'destinations',
      'connections',
      'update',
      String(id),
      '--destination',
      's3',
      '--bucket',
      'invalid-lake',
      '--json',
    ]);
    expect(bad.json()).toMatchObject({ status: 'error', error_text: expect.stringContaining('invalid-lake') });
    expect(bad.code).toBe(1);
    const recheck = await edp(['destinations', 'connections', 'recheck', String(id), '--destination', 's3']);
    expect(recheck.code).toBe(1);
    expect(recheck.stderr).toContain(
      `checked s3 connection ${id} again, but its check failed: Access denied to bucket "invalid-lake".`,
    );
    const ok = await edp(['destinations', 'connections', 'recheck', String(demo(t.sb).s3.id), '--destination', 's3']);
    expect(ok.stderr).toContain('is active');
  });
});
