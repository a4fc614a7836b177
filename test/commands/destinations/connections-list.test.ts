import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (argv: string[], opts: Parameters<typeof cli>[2] = {}) => cli(sb, [...argv, '-w', '101'], opts);

describe('edp destinations connections list and get', () => {
  it('lists and gets connections; 404 for an unknown destination is exit 5', async () => {
    const s3 = demo(sb).s3;
    const list = await edp(['destinations', 'connections', 'list', '--destination', 's3', '--json']);
    expect(list.json().map((c: any) => c.id)).toContain(s3.id);
    const get = await edp(['destinations', 'connections', 'get', String(s3.id), '--destination', 's3'], { tty: true });
    expect(get.stdout).toContain('edp-sandbox-101');
    expect(get.stdout).not.toContain(String(s3.connection_params.aws_secret_access_key));
    expect((await edp(['destinations', 'connections', 'list', '--destination', 'nope'])).code).toBe(5);
  });
});
