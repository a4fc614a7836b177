import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { http, sandbox, tempDir, tokenFor, waitUntil } from '../helpers.js';

const dir = tempDir('edp-state-');
afterAll(() => dir.remove());
let n = 0;
const stateFile = () => join(dir.dir, `state-${++n}.json`);

const BIG = '12345678901234567890123';

describe('sandbox --state: what is saved', () => {
  it('keeps big integers of free-form fields exact across a restart', async () => {
    const file = stateFile();
    const first = await sandbox({ stateFile: file });
    const token = await tokenFor(first, 101);
    const extract = (await http(first, 'GET', '/api/v3/extracts', { token })).body.results[0];
    const patched = await http(first, 'PATCH', `/api/v3/extracts/${extract.id}`, {
      token,
      rawBody: `{"template_settings": {"custom_filters": [{"field": "campaign_id", "in": [${BIG}]}]}}`,
    });
    expect(patched.status).toBe(200);
    await first.close();
    expect(readFileSync(file, 'utf8')).not.toContain('isLosslessNumber');

    const second = await sandbox({ stateFile: file });
    try {
      const again = await http(second, 'GET', `/api/v3/extracts/${extract.id}`, { token: await tokenFor(second, 101) });
      expect(again.text).toContain(`"custom_filters":[{"field":"campaign_id","in":[${BIG}]}]`);
    } finally {
      await second.close();
    }
  });

  it('reads back big integers that earlier versions saved as {value, isLosslessNumber}', async () => {
    const file = stateFile();
    const first = await sandbox({ stateFile: file });
    const extractId = first.store.state.extracts[0]!.id;
    await first.close();
    const old = readFileSync(file, 'utf8').replace(
      /"custom_filters":\[\]/,
      `"custom_filters":[{"field":"campaign_id","in":[{"value":"${BIG}","isLosslessNumber":true}]}]`,
    );
    writeFileSync(file, old);
    const second = await sandbox({ stateFile: file });
    try {
      const again = await http(second, 'GET', `/api/v3/extracts/${extractId}`, {
        token: await tokenFor(second, second.store.state.extracts[0]!.workspace_id),
      });
      expect(again.text).toContain(`"custom_filters":[{"field":"campaign_id","in":[${BIG}]}]`);
    } finally {
      await second.close();
    }
  });

  it('answers a change only once it is in the file', async () => {
    const file = stateFile();
    const sb = await sandbox({ stateFile: file });
    try {
      const created = await http(sb, 'POST', '/api/v3/workspaces', {
        basic: true,
        body: { title: 'On disk before the answer' },
      });
      expect(created.status).toBe(201);
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      expect(saved.workspaces.map((w: { title: string }) => w.title)).toContain('On disk before the answer');
    } finally {
      await sb.close();
    }
  });

  it('saves concurrent changes together, each acknowledged one in the file', async () => {
    const file = stateFile();
    const sb = await sandbox({ stateFile: file });
    try {
      const titles = Array.from({ length: 20 }, (_, i) => `Concurrent ${i}`);
      const answers = await Promise.all(
        titles.map((title) => http(sb, 'POST', '/api/v3/workspaces', { basic: true, body: { title } })),
      );
      expect(answers.map((a) => a.status)).toEqual(titles.map(() => 201));
      const saved = JSON.parse(readFileSync(file, 'utf8')).workspaces.map((w: { title: string }) => w.title);
      for (const title of titles) expect(saved).toContain(title);
    } finally {
      await sb.close();
    }
  });

  it('saves a change the sandbox makes by itself just as a save ends', async () => {
    const file = stateFile();
    const sb = await sandbox({ stateFile: file });
    try {
      sb.store.state.agency.title = 'First';
      sb.store.changed();
      // Runs as the save of 'First' is acknowledged, before that round of saving has ended.
      await sb.store.saved().then(() => {
        sb.store.state.agency.title = 'Second';
        sb.store.changed();
      });
      const savedTitle = () => JSON.parse(readFileSync(file, 'utf8')).agency.title;
      await waitUntil(() => savedTitle() === 'Second', { what: "the second title's save" });
    } finally {
      await sb.close();
    }
  });

  it('writes nothing for reads', async () => {
    const file = stateFile();
    // Nothing changes in the background meanwhile (no build step, run or delivery comes due).
    const sb = await sandbox({ stateFile: file, buildSeconds: 3600, webhookDelay: 3600 });
    try {
      await http(sb, 'POST', '/api/v3/workspaces', { basic: true, body: { title: 'Written once' } });
      // Each save replaces the file by a rename: a new inode and a new modification time.
      const before = statSync(file, { bigint: true });
      for (let i = 0; i < 5; i++) {
        expect((await http(sb, 'GET', '/api/v3/workspaces', { basic: true })).status).toBe(200);
        expect((await http(sb, 'GET', '/_sandbox/state')).status).toBe(200);
      }
      const after = statSync(file, { bigint: true });
      expect([after.ino, after.mtimeNs]).toEqual([before.ino, before.mtimeNs]);
    } finally {
      await sb.close();
    }
  });

  it('keeps serving when a save fails, answers the change 500, and saves again with the next change', async () => {
    const file = stateFile();
    const warnings: string[] = [];
    const sb = await sandbox({ stateFile: file, warn: (m) => warnings.push(m) });
    try {
      // A value the file cannot hold (too deep to write): bodies cannot bring one in, so put it there.
      let deep: Record<string, unknown> = {};
      const root = deep;
      for (let i = 0; i < 20_000; i++) deep = deep.a = {};
      (sb.store.state as unknown as Record<string, unknown>).unsavable = root;

      const failed = await http(sb, 'POST', '/api/v3/workspaces', { basic: true, body: { title: 'Not saved' } });
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({ detail: expect.stringContaining('could not be saved') });
      const failedAgain = await http(sb, 'POST', '/api/v3/workspaces', {
        basic: true,
        body: { title: 'Not saved either' },
      });
      expect(failedAgain.status).toBe(500);
      // A lasting failure is reported once, with the file named.
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(file);
      expect((await http(sb, 'GET', '/_sandbox/health')).status).toBe(200);

      delete (sb.store.state as unknown as Record<string, unknown>).unsavable;
      const saved = await http(sb, 'POST', '/api/v3/workspaces', { basic: true, body: { title: 'Saved after all' } });
      expect(saved.status).toBe(201);
      const titles = JSON.parse(readFileSync(file, 'utf8')).workspaces.map((w: { title: string }) => w.title);
      expect(titles).toEqual(expect.arrayContaining(['Not saved', 'Not saved either', 'Saved after all']));
      expect(warnings[1]).toMatch(/saved .* again/);
    } finally {
      await sb.close();
    }
  });

  it('writes the file for its owner only (it holds passwords and tokens)', async () => {
    if (process.platform === 'win32') return;
    const file = stateFile();
    const sb = await sandbox({ stateFile: file });
    await http(sb, 'POST', '/api/v3/workspaces', { basic: true, body: { title: 'Private' } });
    await sb.close();
    expect(statSync(file).mode & 0o077).toBe(0);
  });
});

describe('sandbox: expired tokens', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox({ tokenTtl: 60 });
  });
  afterAll(() => sb.close());

  it('leaves the state once expired (docs/contract-rules.md: 30 minutes after last use; --token-ttl here)', async () => {
    const old = await tokenFor(sb, 101);
    const used = await tokenFor(sb, 102);
    await http(sb, 'POST', '/_sandbox/clock', { body: { advance_seconds: 50 } });
    expect((await http(sb, 'GET', '/api/v3/workspaces/102/dashboards', { token: used })).status).toBe(200);
    await http(sb, 'POST', '/_sandbox/clock', { body: { advance_seconds: 20 } });
    const fresh = await tokenFor(sb, 103);
    const tokens = Object.keys((await http(sb, 'GET', '/_sandbox/state')).body.tokens);
    expect(tokens).not.toContain(old);
    expect(tokens).toEqual(expect.arrayContaining([used, fresh]));
    expect((await http(sb, 'GET', '/api/v3/workspaces/101/dashboards', { token: old })).status).toBe(401);
  });
});
