import { describe, expect, it } from 'vitest';
import { http, sandbox } from '../helpers.js';

// The tests' sandboxes (test/helpers.ts): one a test has closed stops answering at its address,
// and serves a later test asking for one with the same options, reset to its start on another
// port, as if new.

const title = async (sb: { url: string }) =>
  (await http(sb, 'GET', '/api/v3/workspaces/101', { basic: true })).body.title as string;

describe('a sandbox a test has closed', () => {
  it('answers no more at its address, and serves the next test from its start, options and listeners as started', async () => {
    const first = await sandbox({ buildSeconds: 3 });
    const start = await title(first);
    expect(
      (await http(first, 'PUT', '/api/v3/workspaces/101', { basic: true, body: { title: 'Changed' } })).status,
    ).toBe(200);
    first.store.opts.failRate = 0.5;
    const heard: string[] = [];
    first.app.server.on('request', (req: { url?: string }) => heard.push(req.url ?? ''));
    await first.close();
    const heardBefore = heard.length;
    await expect(fetch(`${first.url}/_sandbox/health`)).rejects.toThrow();

    const next = await sandbox({ buildSeconds: 3 });
    try {
      expect(next.store).toBe(first.store);
      expect(next.url).not.toBe(first.url);
      expect(await title(next)).toBe(start);
      expect(next.store.opts.failRate).toBe(0);
      expect(next.store.opts.buildSeconds).toBe(3);
      const journal = (await http(next, 'GET', '/_sandbox/requests')).body.results as Array<{ path: string }>;
      expect(journal.map((e) => e.path)).toEqual(['/api/v3/workspaces/101']);
      // The first test's listener hears the next test's requests no more.
      expect(heard).toHaveLength(heardBefore);
    } finally {
      await next.close();
    }
  });

  it('serves none with other options, and none once it has taken a snapshot (snapshots outlive a reset)', async () => {
    const first = await sandbox({ buildSeconds: 4 });
    expect((await http(first, 'PUT', '/_sandbox/snapshots/kept')).status).toBe(201);
    await first.close();
    const other = await sandbox({ buildSeconds: 5 });
    const same = await sandbox({ buildSeconds: 4 });
    try {
      expect(same.store).not.toBe(first.store);
      expect(other.store).not.toBe(first.store);
      expect((await http(same, 'GET', '/_sandbox/snapshots')).body.count).toBe(0);
    } finally {
      await Promise.all([other.close(), same.close()]);
    }
  });
});
