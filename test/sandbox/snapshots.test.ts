import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { violationOf } from '../fixtures/openapi-check.js';
import { V31, configuration, configure, createRecipe, demo } from '../fixtures/recipes.js';
import { advanceClock, http, sandbox, settleClock, tempDir, tokenFor, waitUntil } from '../helpers.js';

/**
 * The state controls: POST /_sandbox/reset, snapshots taken and restored, through HTTP as a
 * test suite uses them, and through the inspector's forms as a browser posts them.
 */

let sb: Sandbox;
let closed = false;
afterEach(async () => {
  if (!closed) await sb.close();
  closed = false;
});

const state = async () => (await http(sb, 'GET', '/_sandbox/state')).text;
const clock = async () => {
  const { now, mode } = (await http(sb, 'GET', '/_sandbox/clock')).body as { now: string; mode: string };
  return { now, mode };
};

/** Changes of three kinds: a recipe created, a workspace renamed, the clock moved. */
async function change(title: string, template = 4001): Promise<string> {
  const token = await tokenFor(sb, 101);
  const created = await http(sb, 'POST', '/api/v3.1/automated-recipes/', {
    token,
    body: { template_id: template, title },
  });
  expect(created.status, created.text).toBe(201);
  const renamed = await http(sb, 'PUT', '/api/v3/workspaces/101', { basic: true, body: { title } });
  expect(renamed.status).toBe(200);
  await advanceClock(sb, 3600);
  return String(created.body.id);
}

function workspaceTitle(id: number): string | undefined {
  return sb.store.state.workspaces.find((w) => w.id === id)?.title;
}

/** A POST with a Host header of our choosing (fetch does not let one set it). */
function rawPost(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: sb.port, path, method: 'POST', headers, setHost: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('POST /_sandbox/reset', () => {
  it('gives back the start: the recipe created is gone, the workspace renamed back, the clock back', async () => {
    sb = await sandbox();
    const start = await state();
    const startClock = await clock();
    const title = workspaceTitle(101);
    const webhookKnobs = (await http(sb, 'PATCH', '/_sandbox/webhooks', { body: {} })).body;
    expect((await http(sb, 'PATCH', '/_sandbox/faults', { body: { retry_after: 9, latency_ms: 0 } })).status).toBe(200);
    const knobs = { retry_delays: [0, 0], lost_answers: 2, timestamp_digits: 6, delay: 0 };
    expect((await http(sb, 'PATCH', '/_sandbox/webhooks', { body: knobs })).body).toEqual(knobs);
    const id = await change('Reset me');
    expect(workspaceTitle(101)).toBe('Reset me');
    expect((await http(sb, 'GET', '/_sandbox/requests')).body.count).toBeGreaterThan(0);

    const reset = await http(sb, 'POST', '/_sandbox/reset');
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ reset: true, clock: startClock });
    expect(await state()).toBe(start);
    expect(await clock()).toEqual(startClock);
    expect(workspaceTitle(101)).toBe(title);
    const token = await tokenFor(sb, 101);
    const gone = await http(sb, 'GET', `/api/v3.1/automated-recipes/${id}/`, { token });
    expect(gone.status).toBe(404);
    // The fault knobs are as started, and the journal holds only what came after the reset.
    expect(sb.store.opts.retryAfter).toBe(0);
    expect((await http(sb, 'PATCH', '/_sandbox/webhooks', { body: {} })).body).toEqual(webhookKnobs);
    const journal = (await http(sb, 'GET', '/_sandbox/requests')).body.results as Array<{ path: string }>;
    expect(journal.map((e) => e.path)).not.toContain('/api/v3/workspaces/101');
  });

  it('returns the seeded generators where they stood: the same runs make the same rows, the same faults come again', async () => {
    sb = await sandbox();
    // Rows of extract runs come from the data generator (routes/extraction/model.ts), 503s and
    // dropped answers from the fault generator.
    const draw = () => ({ data: [sb.store.random(), sb.store.random()], fault: sb.store.faultRandom() });
    const first = draw();
    expect(draw()).not.toEqual(first);
    expect((await http(sb, 'POST', '/_sandbox/reset')).status).toBe(200);
    expect(draw()).toEqual(first);
  });

  it('drops a webhook delivery under way: its answer is not logged in the state returned to, nor retried', async () => {
    sb = await sandbox({ webhookDelay: 0, webhookRetryDelays: [0, 0, 0, 0] });
    // A receiver that verifies at once and holds every delivery until its connection closes.
    let held = 0;
    let dropped = 0;
    const hook = createServer((req, res) => {
      if (req.method === 'GET') return res.end(String(req.headers['x-service-challenge'] ?? ''));
      held += 1;
      req.on('close', () => (dropped += 1));
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      const token = await tokenFor(sb, 101);
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const ep = await http(sb, 'POST', '/api/v3/webhook_endpoints/', {
        token,
        body: { url, event_types: ['connection_deleted'] },
      });
      expect((await http(sb, 'POST', `/api/v3/webhook_endpoints/${ep.body.id}/verify/`, { token })).status).toBe(200);
      sb.store.emit('connection_deleted', 101, 'Connection', { datasource_connection_id: '1' });
      await advanceClock(sb, 0);
      await waitUntil(() => held === 1, { what: 'the delivery at the receiver' });
      expect((await http(sb, 'POST', '/_sandbox/reset')).status).toBe(200);
      await waitUntil(() => dropped === 1, { what: 'the delivery given up' });
      expect((await http(sb, 'GET', '/_sandbox/webhook-deliveries')).body).toEqual([]);
      expect(held).toBe(1);
    } finally {
      hook.closeAllConnections();
      await new Promise((resolve) => hook.close(resolve));
    }
  });

  it('with --state, is saved to the file as every change is', async () => {
    const dir = tempDir();
    try {
      const file = join(dir.dir, 'state.json');
      sb = await sandbox({ stateFile: file });
      const start = JSON.parse(await state());
      await change('Saved');
      expect(JSON.parse(readFileSync(file, 'utf8')).workspaces).not.toEqual(start.workspaces);
      expect((await http(sb, 'POST', '/_sandbox/reset')).status).toBe(200);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(start);
    } finally {
      await sb.close();
      closed = true;
      dir.remove();
    }
  });
});

describe('POST /_sandbox/reset after a start with --state', () => {
  it('returns to what the file held at start, not to the demo data', async () => {
    const dir = tempDir();
    try {
      const file = join(dir.dir, 'state.json');
      sb = await sandbox({ stateFile: file });
      await change('Kept in the file');
      await sb.close();
      sb = await sandbox({ stateFile: file });
      const loaded = await state();
      expect(workspaceTitle(101)).toBe('Kept in the file');
      await change('After the start', 4002);
      expect((await http(sb, 'POST', '/_sandbox/reset')).status).toBe(200);
      expect(await state()).toBe(loaded);
      expect(workspaceTitle(101)).toBe('Kept in the file');
    } finally {
      await sb.close();
      closed = true;
      dir.remove();
    }
  });
});

describe('snapshots', () => {
  it('snapshot, change, restore gives the snapshot exactly, clock included', async () => {
    sb = await sandbox();
    await change('Before');
    const before = await state();
    const beforeClock = await clock();
    const taken = await http(sb, 'PUT', '/_sandbox/snapshots/before-2');
    expect(taken.status).toBe(201);
    expect(taken.body).toEqual({ name: 'before-2', taken_at: beforeClock.now, size: Buffer.byteLength(before) });
    await change('After', 4002);
    expect(await state()).not.toBe(before);
    const restored = await http(sb, 'POST', '/_sandbox/snapshots/before-2/restore');
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({ restored: taken.body, clock: beforeClock });
    expect(await state()).toBe(before);
    expect(await clock()).toEqual(beforeClock);
    // A snapshot is a copy: changes after a restore do not reach it.
    await change('Again', 4002);
    expect((await http(sb, 'POST', '/_sandbox/snapshots/before-2/restore')).status).toBe(200);
    expect(await state()).toBe(before);
  });

  it('a restore returns the data generator where it stood when taken; the faults go on', async () => {
    sb = await sandbox();
    expect((await http(sb, 'PUT', '/_sandbox/snapshots/taken')).status).toBe(201);
    const data = [sb.store.random(), sb.store.random()];
    const fault = sb.store.faultRandom();
    expect((await http(sb, 'POST', '/_sandbox/snapshots/taken/restore')).status).toBe(200);
    expect([sb.store.random(), sb.store.random()]).toEqual(data);
    expect(sb.store.faultRandom()).not.toBe(fault);
  });

  it('a build in progress when taken goes on after a restore; a reset drops the work in progress', async () => {
    sb = await sandbox({ buildSeconds: 60 });
    const token = await tokenFor(sb, 101);
    const id = await createRecipe(sb, token, 4001);
    await configure(
      sb,
      token,
      id,
      configuration(sb, 101, { google_ads: demo(sb, 101, 'google_ads').accounts.slice(0, 1) }),
    );
    expect((await http(sb, 'POST', `${V31}${id}/build/`, { token })).status).toBe(202);
    const recipe = async () => (await http(sb, 'GET', `${V31}${id}/`, { token })).body;
    const pending = async () => (await http(sb, 'GET', '/_sandbox/clock')).body.pending_timers as number;
    expect((await http(sb, 'PUT', '/_sandbox/snapshots/mid-build')).status).toBe(201);
    await settleClock(sb);
    const built = await recipe();
    expect(built.state).toBe('ready_to_work');

    expect((await http(sb, 'POST', '/_sandbox/snapshots/mid-build/restore')).status).toBe(200);
    expect((await recipe()).state).toBe('extracting_data');
    expect(await pending()).toBeGreaterThan(0);
    await settleClock(sb);
    expect((await recipe()).state).toBe('ready_to_work');

    expect((await http(sb, 'POST', '/_sandbox/snapshots/mid-build/restore')).status).toBe(200);
    expect((await http(sb, 'POST', '/_sandbox/reset')).status).toBe(200);
    // Nothing of the build is left to fire into the start state.
    expect(await pending()).toBe(0);
    // The token issued since the start is gone with the rest.
    expect((await http(sb, 'GET', `${V31}${id}/`, { token })).status).toBe(401);
    expect((await http(sb, 'GET', `${V31}${id}/`, { token: await tokenFor(sb, 101) })).status).toBe(404);
  });

  it('lists the snapshots; a name taken again is replaced', async () => {
    sb = await sandbox();
    expect((await http(sb, 'GET', '/_sandbox/snapshots')).body).toEqual({ count: 0, results: [] });
    expect((await http(sb, 'PUT', '/_sandbox/snapshots/a')).status).toBe(201);
    await advanceClock(sb, 60);
    expect((await http(sb, 'PUT', '/_sandbox/snapshots/B_1')).status).toBe(201);
    await advanceClock(sb, 60);
    const again = await http(sb, 'PUT', '/_sandbox/snapshots/a');
    expect(again.status).toBe(200);
    const list = (await http(sb, 'GET', '/_sandbox/snapshots')).body;
    expect(list.count).toBe(2);
    expect(list.results.map((s: { name: string }) => s.name)).toEqual(['B_1', 'a']);
    expect(list.results[1]).toEqual(again.body);
    expect(list.results[0].taken_at < list.results[1].taken_at).toBe(true);
    expect(list.results[0].size).toBeGreaterThan(1000);
  });

  it('an unknown name is 404 with the names known; a bad name is 400, nothing changed', async () => {
    sb = await sandbox();
    await http(sb, 'PUT', '/_sandbox/snapshots/one');
    await http(sb, 'PUT', '/_sandbox/snapshots/two');
    const before = await state();
    const unknown = await http(sb, 'POST', '/_sandbox/snapshots/three/restore');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'No snapshot "three"; known: one, two.', snapshots: ['one', 'two'] });
    for (const bad of ['a.b', 'x'.repeat(65), 'a%20b', '%C3%A9']) {
      const put = await http(sb, 'PUT', `/_sandbox/snapshots/${bad}`);
      expect(put.status, bad).toBe(400);
      expect(put.body.detail).toContain('snapshot name must be 1 to 64 letters');
      expect((await http(sb, 'POST', `/_sandbox/snapshots/${bad}/restore`)).status, bad).toBe(400);
    }
    expect((await http(sb, 'PUT', `/_sandbox/snapshots/${'x'.repeat(64)}`)).status).toBe(201);
    expect((await http(sb, 'GET', '/_sandbox/snapshots')).body.count).toBe(3);
    expect(await state()).toBe(before);
  });

  it('are refused from a Host that is not loopback, and without the control token when one is set', async () => {
    sb = await sandbox();
    const before = await state();
    expect(await rawPost('/_sandbox/reset', { host: 'evil.example' })).toBe(403);
    expect(await rawPost('/_sandbox/snapshots/x/restore', { host: 'evil.example' })).toBe(403);
    expect((await http(sb, 'GET', '/_sandbox/snapshots')).body.count).toBe(0);
    expect(await state()).toBe(before);
    await sb.close();

    sb = await sandbox({ controlToken: 'a-control-token-of-16+' });
    const header = { 'x-sandbox-token': 'a-control-token-of-16+' };
    expect((await http(sb, 'PUT', '/_sandbox/snapshots/x')).status).toBe(403);
    expect((await http(sb, 'POST', '/_sandbox/reset')).status).toBe(403);
    expect((await http(sb, 'PUT', '/_sandbox/snapshots/x', { headers: header })).status).toBe(201);
    expect((await http(sb, 'POST', '/_sandbox/reset', { headers: header })).status).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('declares the state controls in its sandbox section, and each answer is one it declares', async () => {
    sb = await sandbox();
    const doc = (await http(sb, 'GET', '/_sandbox/openapi.json')).body;
    const calls: Array<[string, string, string, number]> = [
      ['PUT', '/_sandbox/snapshots/one', '/_sandbox/snapshots/:name', 201],
      ['PUT', '/_sandbox/snapshots/one', '/_sandbox/snapshots/:name', 200],
      ['PUT', '/_sandbox/snapshots/a.b', '/_sandbox/snapshots/:name', 400],
      ['GET', '/_sandbox/snapshots', '/_sandbox/snapshots', 200],
      ['POST', '/_sandbox/snapshots/one/restore', '/_sandbox/snapshots/:name/restore', 200],
      ['POST', '/_sandbox/snapshots/two/restore', '/_sandbox/snapshots/:name/restore', 404],
      ['POST', '/_sandbox/snapshots/a.b/restore', '/_sandbox/snapshots/:name/restore', 400],
      ['POST', '/_sandbox/reset', '/_sandbox/reset', 200],
    ];
    for (const [method, path, route, status] of calls) {
      const res = await http(sb, method, path);
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(violationOf({ method, route, status, body: res.text }, doc), `${method} ${path}`).toBeUndefined();
      expect(doc.paths[route.replace(/:(\w+)/g, '{$1}')][method.toLowerCase()].tags).toEqual(['sandbox']);
    }
    // The check can fail: a snapshot without its size is not what the document declares.
    const bad = {
      method: 'PUT',
      route: '/_sandbox/snapshots/:name',
      status: 201,
      body: '{"name":"one","taken_at":"2026-01-01T00:00:00.000Z"}',
    };
    expect(violationOf(bad, doc)).toContain('size');
  });
});

describe("the inspector's state forms", () => {
  const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
  const get = async (path: string) => (await fetch(`${sb.url}${path}`, { headers: HTML, redirect: 'manual' })).text();
  async function post(action: string, fields: Array<[string, string]>): Promise<string> {
    const res = await fetch(`${sb.url}${action}`, {
      method: 'POST',
      headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    return get(res.headers.get('location')!);
  }

  it('take a snapshot, restore it, reset, and say so', async () => {
    sb = await sandbox();
    const start = await state();
    const page = await get('/_sandbox/');
    expect(page).toContain('<label for="f-snapshot-name">');
    expect(page).toContain('No snapshot taken.');
    expect(page).not.toContain('action="/_sandbox/inspector/restore"');

    await change('Form');
    const changed = await state();
    const taken = await post('/_sandbox/inspector/snapshot', [['name', 'form-1']]);
    expect(taken).toContain('<p class="done" role="status">Snapshot form-1 taken.</p>');
    expect(taken).toContain('<option value="form-1">form-1</option>');
    expect(taken).toMatch(/<td>form-1<\/td><td>[^<]+<\/td><td>\d+<\/td>/);

    const refused = await post('/_sandbox/inspector/snapshot', [['name', 'no good']]);
    expect(refused).toContain('No snapshot was taken');
    expect((await http(sb, 'GET', '/_sandbox/snapshots')).body.count).toBe(1);

    const reset = await post('/_sandbox/inspector/reset', []);
    expect(reset).toContain('The sandbox is back to its start state.');
    expect(await state()).toBe(start);
    // The snapshots outlive a reset.
    const restored = await post('/_sandbox/inspector/restore', [['name', 'form-1']]);
    expect(restored).toContain('Snapshot form-1 restored.');
    expect(await state()).toBe(changed);
    const missing = await post('/_sandbox/inspector/restore', [['name', 'gone']]);
    expect(missing).toContain('Nothing was restored');
    expect(await state()).toBe(changed);
  });
});
