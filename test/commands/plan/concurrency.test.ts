import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { fleetSized } from '../../../src/commands/shared/concurrency.js';
import { cli, http, sandbox } from '../../helpers.js';
import { useFiles } from '../../fixtures/files.js';
import { holdWrites } from '../../fixtures/held-writes.js';
import type { Proxy } from '../../fixtures/proxy.js';

// `auto` works in one workspace per workspace up to a cap that follows what the command does:
// 32 for a command that only reads (a plan's time is its reads' waits), 16 for one that changes
// things.

const writeFile = useFiles('edp-concurrency-');

describe('auto concurrency', () => {
  it('is one per workspace, at most 32 for reads and 16 for changes, never under one', () => {
    expect([0, 1, 10, 32, 500].map((n) => fleetSized(n, 'reads'))).toEqual([1, 1, 10, 32, 32]);
    expect([0, 1, 10, 32, 500].map((n) => fleetSized(n, 'changes'))).toEqual([1, 1, 10, 16, 16]);
  });

  describe('a plan over 40 workspaces', () => {
    let sb: Sandbox;
    let proxy: Proxy | undefined;
    beforeEach(async () => {
      sb = await sandbox({ buildSeconds: 0 });
    });
    afterEach(async () => {
      await proxy?.close();
      await sb.close();
    });

    it('reads 32 of them at once by default', async () => {
      const ids = [101, 102, 103];
      while (ids.length < 40) {
        const r = await http(sb, 'POST', '/api/v3/workspaces', {
          basic: true,
          body: { title: `Client ${ids.length}` },
        });
        expect(r.status).toBe(201);
        ids.push(r.body.id);
      }
      // Each workspace's read of its destination connections is held until 32 of them are at the
      // service at once; at 16 the plan would wait for them forever.
      proxy = await holdWrites(
        sb.url,
        32,
        (method, path) => method === 'GET' && path.startsWith('/api/v3/destinations/s3/connections'),
      );
      const f = writeFile(
        'fleet.yaml',
        `workspaces: all\ndestinations:\n  - destination: s3\n    title: Lake\n    params: {bucket: lake, region: eu-west-1, aws_access_key_id: AKIATEST, aws_secret_access_key: test-secret}\n`,
      );
      const r = await cli({ url: proxy.url }, ['plan', '-f', f, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).workspaces).toHaveLength(40);
    });
  });
});
