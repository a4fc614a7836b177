import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';
import { destinationConnections } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 });
const { edp } = destinationConnections(t);

describe('edp destinations connections list and get', () => {
  it('lists and gets connections; 404 for an unknown destination is exit 5', async () => {
    const s3 = demo(t.sb).s3;
    const list = await edp(['destinations', 'connections', 'list', '--destination', 's3', '--json']);
    expect(list.json().map((c: any) => c.id)).toContain(s3.id);
    const get = await edp(['destinations', 'connections', 'get', String(s3.id), '--destination', 's3'], { tty: true });
    expect(get.stdout).toContain('edp-sandbox-101');
    expect(get.stdout).not.toContain(String(s3.connection_params.aws_secret_access_key));
    expect((await edp(['destinations', 'connections', 'list', '--destination', 'nope'])).code).toBe(5);
  });
});
