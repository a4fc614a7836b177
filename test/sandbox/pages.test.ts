import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { FLOW_LIMIT } from '../../src/sandbox/pages/flow.js';
import { INSPECTOR_ROWS } from '../../src/sandbox/pages/inspector.js';
import { advanceClock, http, sandbox, tokenFor } from '../helpers.js';

/**
 * The sandbox's pages without a browser: the iframe and link pages' forms posted as a browser
 * posts them, the error pages, the inspector. test/tools/browser.test.ts clicks through the same
 * pages in Chromium.
 */

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox();
});
afterEach(() => sb.close());

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

async function get(path: string) {
  const res = await fetch(`${sb.url}${path}`, { headers: HTML, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Posts a form as a browser does and follows the redirect to the next step. */
async function post(action: string, fields: Array<[string, string]>) {
  const res = await fetch(`${sb.url}${action}`, {
    method: 'POST',
    headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  if (res.status !== 303) return { status: res.status, headers: res.headers, text: await res.text() };
  return get(res.headers.get('location')!);
}

/**
 * Opens the page at `path` in-process (`app.inject`: no socket), for the tests that open
 * hundreds; its status.
 */
async function open(path: string): Promise<number> {
  return (await sb.app.inject({ method: 'GET', url: path, headers: HTML })).statusCode;
}

/** An iframe code's page address, made in-process. */
async function injectIframeUrl(body: Record<string, unknown>): Promise<string> {
  const res = await sb.app.inject({
    method: 'POST',
    url: '/api/v3/get_iframe_url',
    headers: { authorization: `Basic ${Buffer.from('agency@sandbox.local:sandbox').toString('base64')}` },
    payload: body,
  });
  const u = new URL(res.json<{ url: string }>().url);
  return `${u.pathname}${u.search}`;
}

function actionOf(html: string): string {
  const m = /<form method="post" action="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no form in ${html.slice(0, 400)}`);
  return m[1]!;
}

async function iframeUrl(body: Record<string, unknown>, query = ''): Promise<string> {
  const r = await http(sb, 'POST', `/api/v3/get_iframe_url${query}`, { basic: true, body });
  expect(r.status).toBe(200);
  const u = new URL(r.body.url);
  return `${u.pathname}${u.search}`;
}

const connectionsOf = (ws: number, ds: string) =>
  sb.store.state.connections.filter((c) => c.workspace_id === ws && c.datasource_name === ds && !c.deleted);
const accountsOf = (connectionId: number) => sb.store.state.accounts.filter((a) => a.connection_id === connectionId);

describe('the iframe page', () => {
  it('one step: signing in makes a connection with every account the sign-in found, and spends the code', async () => {
    const path = await iframeUrl({ workspace_id: 101, type: 'datasource', name: 'google_ads' });
    const before = connectionsOf(101, 'google_ads').length;
    const first = await get(path);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/html/);
    // Embeddable: nothing forbids framing.
    expect(first.headers.get('x-frame-options')).toBeNull();
    expect(first.headers.get('content-security-policy')).toBeNull();
    expect(first.text).toContain('Sign in to Google Ads');
    expect(first.text).toContain('Authentication method');
    const done = await post(actionOf(first.text), [
      ['auth_method', 'oauth'],
      ['email', 'client@example.com'],
      ['consent', 'yes'],
    ]);
    expect(done.status).toBe(200);
    expect(done.text).toContain('Connected: Google Ads (client@example.com)');
    expect(done.text).toContain('postMessage({"type":"ConnectionCreated"');
    const conns = connectionsOf(101, 'google_ads');
    expect(conns.length).toBe(before + 1);
    expect(accountsOf(conns.at(-1)!.id).map((a) => a.title)).toEqual([
      'Client account 1',
      'Client account 2',
      'Client account 3',
    ]);
    // The workspace's connectors changed: an active event type, delivered to subscribers.
    expect(sb.store.state.events.at(-1)).toMatchObject({ type: 'workspace_connector_changed', workspace_id: 101 });

    // Single use: the same URL now shows why it cannot be used, as a page for a browser ...
    const again = await get(path);
    expect(again.status).toBe(404);
    expect(again.headers.get('content-type')).toMatch(/^text\/html/);
    expect(again.text).toContain('already been used');
    expect(again.text).not.toMatch(/at .*\.(js|ts):\d+/);
    // ... and as the service's error body for a program.
    const api = await http(sb, 'GET', path);
    expect(api.status).toBe(404);
    expect(api.body.detail).toContain('already been used');
  });

  it('two steps (show_account_selection=True): the connection has the accounts picked', async () => {
    const path = await iframeUrl({ workspace_id: 101, type: 'datasource', name: 'google_ads' });
    const first = await get(`${path}&show_account_selection=True&use_default_auth=True`);
    expect(first.text).not.toContain('Authentication method');
    const before = connectionsOf(101, 'google_ads').length;
    const pick = await post(actionOf(first.text), [
      ['auth_method', 'oauth'],
      ['email', 'client@example.com'],
      ['consent', 'yes'],
    ]);
    expect(pick.text).toContain('Which accounts should be synced?');
    // Nothing is made before the accounts are picked.
    expect(connectionsOf(101, 'google_ads').length).toBe(before);
    const remotes = [...pick.text.matchAll(/name="account" value="(\d+)"/g)].map((m) => m[1]!);
    expect(remotes).toHaveLength(3);
    const none = await post(actionOf(pick.text), [['scope', 'some']]);
    expect(none.status).toBe(400);
    expect(none.text).toContain('Pick at least one account');
    const done = await post(actionOf(none.text), [
      ['scope', 'some'],
      ['account', remotes[0]!],
      ['account', remotes[2]!],
    ]);
    expect(done.text).toContain('Connected');
    const c = connectionsOf(101, 'google_ads').at(-1)!;
    expect(accountsOf(c.id).map((a) => a.account_id)).toEqual([remotes[0], remotes[2]]);
  });

  it('two steps: accounts ticked with "Sync all accounts" still chosen are refused, saying which to choose', async () => {
    const path = await iframeUrl({ workspace_id: 101, type: 'datasource', name: 'google_ads' });
    const first = await get(`${path}&show_account_selection=True`);
    const pick = await post(actionOf(first.text), [
      ['email', 'client@example.com'],
      ['consent', 'yes'],
    ]);
    // The page's own script keeps the two in step in a browser (test/tools/browser.test.ts).
    expect(pick.text).toContain('id="accounts-form"');
    const remote = /name="account" value="(\d+)"/.exec(pick.text)![1]!;
    const before = connectionsOf(101, 'google_ads').length;
    const mixed = await post(actionOf(pick.text), [
      ['scope', 'all'],
      ['account', remote],
    ]);
    expect(mixed.status).toBe(400);
    expect(mixed.text).toContain(
      'You ticked accounts but chose “Sync all accounts”. Choose “Only the accounts picked below” to sync just those, or untick them to sync all.',
    );
    expect(connectionsOf(101, 'google_ads').length).toBe(before);
    // Ticked accounts and no choice of scope at all: the ticked ones.
    const done = await post(actionOf(mixed.text), [['account', remote]]);
    expect(done.text).toContain('Connected');
    expect(accountsOf(connectionsOf(101, 'google_ads').at(-1)!.id).map((a) => a.account_id)).toEqual([remote]);
  });

  it('a data source that cannot list accounts before the connection keeps the one-step flow', async () => {
    const path = await iframeUrl({ workspace_id: 101, type: 'datasource', name: 'linkedin_ads' });
    const first = await get(`${path}&show_account_selection=True`);
    const done = await post(actionOf(first.text), [
      ['email', 'x@example.com'],
      ['consent', 'yes'],
    ]);
    expect(done.text).toContain('Connected: LinkedIn Ads');
  });

  it('without a name: the data source is chosen first; sign-in refuses without consent', async () => {
    const path = await iframeUrl({ workspace_id: 101 });
    const first = await get(path);
    expect(first.text).toContain('Choose a data source');
    expect(first.text).toContain('Already connected');
    const signin = await post(actionOf(first.text), [['name', 'facebook_ads']]);
    expect(signin.text).toContain('Sign in to Facebook Ads');
    const refused = await post(actionOf(signin.text), [['email', 'x@example.com']]);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Allow access to go on');
  });

  it('show_datasources=false hides the existing connections; show_accounts=false their accounts', async () => {
    const hidden = await get(await iframeUrl({ workspace_id: 101 }, '?show_datasources=false'));
    expect(hidden.text).not.toContain('Already connected');
    const withAccounts = await get(await iframeUrl({ workspace_id: 101 }));
    expect(withAccounts.text).toMatch(/<li>Google Ads \(Acme Retail\)<ul><li>/);
    const noAccounts = await get(await iframeUrl({ workspace_id: 101 }, '?show_accounts=false'));
    expect(noAccounts.text).toContain('Already connected');
    expect(noAccounts.text).toMatch(/<li>Google Ads \(Acme Retail\)<\/li>/);
  });

  it("reopening one code many times never ends another code's sign-in in progress", async () => {
    const mine = await get(await iframeUrl({ workspace_id: 101, name: 'google_ads' }));
    const other = await iframeUrl({ workspace_id: 101, name: 'facebook_ads' });
    const oldest = await get(other);
    for (let i = 0; i < FLOW_LIMIT - 1; i++) expect(await open(other)).toBe(200);
    const newest = await get(other);
    const done = await post(actionOf(mine.text), [
      ['email', 'client@example.com'],
      ['consent', 'yes'],
    ]);
    expect(done.status).toBe(200);
    expect(done.text).toContain('Connected: Google Ads');
    // The code opened over and over keeps its newest pages only.
    const ended = await post(actionOf(oldest.text), [['email', 'x@example.com']]);
    expect(ended.status).toBe(404);
    expect(ended.text).toContain('This sign-in has ended');
    const last = await post(actionOf(newest.text), [
      ['email', 'client@example.com'],
      ['consent', 'yes'],
    ]);
    expect(last.text).toContain('Connected: Facebook Ads');
  });

  it(`beyond ${FLOW_LIMIT} sign-ins in progress a new one is refused (503), not made by ending another`, async () => {
    const first = await get(await iframeUrl({ workspace_id: 101, name: 'google_ads' }));
    for (let i = 1; i < FLOW_LIMIT; i++) expect(await open(await injectIframeUrl({ workspace_id: 101 }))).toBe(200);
    const refused = await get(await iframeUrl({ workspace_id: 101, name: 'google_ads' }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect(refused.text).toContain(`This sandbox has ${FLOW_LIMIT} sign-ins in progress, the most it keeps.`);
    const asProgram = await http(sb, 'GET', await iframeUrl({ workspace_id: 101, name: 'google_ads' }));
    expect(asProgram.status).toBe(503);
    expect(asProgram.body.detail).toContain('sign-ins in progress');
    // The first is still there; once it ends, its place is taken by the next one opened.
    const done = await post(actionOf(first.text), [
      ['email', 'client@example.com'],
      ['consent', 'yes'],
    ]);
    expect(done.text).toContain('Connected');
    expect((await get(await iframeUrl({ workspace_id: 101, name: 'google_ads' }))).status).toBe(200);
  });

  it('an unknown code, and a code an hour old, show an error page', async () => {
    const unknown = await get('/api/v3/iframe/?code=nope');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('unknown code');
    const path = await iframeUrl({ workspace_id: 101, name: 'google_ads' });
    await advanceClock(sb, 3601);
    const old = await get(path);
    expect(old.status).toBe(404);
    expect(old.text).toContain('expired');
  });

  it('an address the document refuses (no code, an unknown type) shows a 400 page naming the parameter', async () => {
    const noCode = await get('/api/v3/iframe/');
    expect(noCode.status).toBe(400);
    expect(noCode.text).toMatch(/query parameter (&#34;|&quot;)code\1/);
    const badType = await get(`${await iframeUrl({ workspace_id: 101 })}&type=connector`);
    expect(badType.status).toBe(400);
    expect(badType.text).toMatch(/query parameter (&#34;|&quot;)type\1/);
  });

  it('a destination: the connection is a destination connection', async () => {
    const path = await iframeUrl({ workspace_id: 101, type: 'destination', name: 'sftp' });
    const first = await get(path);
    const done = await post(actionOf(first.text), [
      ['email', 'ops@example.com'],
      ['consent', 'yes'],
    ]);
    expect(done.text).toContain('destination connection');
    expect(sb.store.state.destination_connections.at(-1)).toMatchObject({
      workspace_id: 101,
      destination_name: 'sftp',
    });
  });
});

describe('the external authentication link page', () => {
  async function link(body: Record<string, unknown>) {
    const token = await tokenFor(sb, 101);
    const r = await http(sb, 'POST', '/api/v3/datasources/google_ads/external-auth-links', { token, body });
    expect(r.status).toBe(201);
    const l = r.body[0];
    return { id: l.id as number, path: new URL(l.url).pathname };
  }

  it('names the user who asked; connecting uses the link and sends that user a confirmation', async () => {
    const l = await link({
      to_emails: ['client@example.com'],
      send_email: false,
      requested_by: 'agency@sandbox.local',
    });
    const first = await get(l.path);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Avery Chief asks you to connect Google Ads');
    const pick = await post(actionOf(first.text), [
      ['email', 'client@example.com'],
      ['consent', 'yes'],
    ]);
    const remote = /name="account" value="(\d+)"/.exec(pick.text)![1]!;
    const outbox = sb.store.state.outbox.length;
    const done = await post(actionOf(pick.text), [
      ['scope', 'some'],
      ['account', remote],
    ]);
    expect(done.text).toContain('Connected');
    const stored = sb.store.state.external_auth_links.find((x) => x.id === l.id)!;
    expect(stored.status).toBe('used');
    expect(accountsOf(stored.connection_id!).map((a) => a.account_id)).toEqual([remote]);
    expect(sb.store.state.outbox.slice(outbox)).toEqual([
      expect.objectContaining({ to: 'agency@sandbox.local', kind: 'confirmation', link_ids: [l.id] }),
    ]);
    const used = await get(l.path);
    expect(used.status).toBe(410);
    expect(used.text).toContain('already been used');
  });

  it('without requested_by: the whitelabel title, and no confirmation', async () => {
    const l = await link({ to_emails: ['client@example.com'], send_email: false });
    const first = await get(l.path);
    expect(first.text).toContain('Sandbox Data Hub asks you to connect');
    const outbox = sb.store.state.outbox.length;
    await post(actionOf(first.text), [
      ['email', 'client@example.com'],
      ['consent', 'yes'],
    ]).then((pick) => post(actionOf(pick.text), [['scope', 'all']]));
    expect(sb.store.state.outbox.length).toBe(outbox);
  });

  it('a revoked, an expired and an unknown link say why', async () => {
    const revoked = sb.store.state.external_auth_links.find((x) => x.status === 'revoked_manually')!;
    const r = await get(`/connect/${revoked.token}`);
    expect(r.status).toBe(410);
    expect(r.text).toContain('revoked');
    const l = await link({ to_emails: ['late@example.com'], send_email: false });
    const opened = await get(l.path);
    await advanceClock(sb, 14 * 24 * 3600);
    const expired = await get(l.path);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('expired');
    // A page opened before the link expired cannot finish either.
    const late = await post(actionOf(opened.text), [
      ['email', 'late@example.com'],
      ['consent', 'yes'],
    ]);
    expect(late.status).toBe(410);
    expect((await get('/connect/unknown-token')).status).toBe(404);
  });
});

describe('the inspector', () => {
  it('shows the requests, the outbox and the links, and advances the clock', async () => {
    await http(sb, 'GET', '/api/v3/iframe/?code=journal-me');
    const page = await get('/_sandbox/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Sandbox inspector');
    expect(page.text).toContain('/api/v3/iframe/');
    expect(page.text).toContain('former-client@example.com');
    const before = sb.store.clock.now();
    const after = await post('/_sandbox/inspector/clock', [['advance_seconds', '86400']]);
    expect(after.text).toContain('Clock advanced by 86400 s.');
    expect(sb.store.clock.now() - before).toBeGreaterThanOrEqual(86_400_000);
  });

  it('changes the fault knobs', async () => {
    const after = await post('/_sandbox/inspector/faults', [
      ['latency_ms', '0'],
      ['retry_after', '7'],
    ]);
    expect(after.text).toContain('Fault knobs applied.');
    expect(sb.store.opts.retryAfter).toBe(7);
    // A share past 1 is refused whole: the form says so and no knob moves, by the form or the control.
    expect((await get('/_sandbox/')).text).toMatch(/name="fail_rate" value="[\d.]+" min="0" max="1"/);
    const refused = await post('/_sandbox/inspector/faults', [
      ['fail_rate', '1.5'],
      ['retry_after', '9'],
    ]);
    expect(refused.text).toContain('The fault knobs were not changed.');
    expect([sb.store.opts.failRate, sb.store.opts.retryAfter]).toEqual([0, 7]);
    const control = await http(sb, 'PATCH', '/_sandbox/faults', { body: { reset_rate: -0.1 } });
    expect(control.status).toBe(400);
    expect(JSON.stringify(control.body)).toContain('reset_rate');
    expect(sb.store.opts.resetRate).toBe(0);
  });

  it('shows only its own messages: ?done= names one, never the text', async () => {
    const forged = await get(`/_sandbox/?done=${encodeURIComponent('Your data was deleted. Call +1 555 0100.')}`);
    expect(forged.status).toBe(200);
    expect(forged.text).not.toContain('Call +1 555');
    expect(forged.text).not.toContain('role="status"');
    for (const key of ['constructor', '__proto__', 'toString']) {
      expect((await get(`/_sandbox/?done=${key}`)).text).not.toContain('role="status"');
    }
    expect((await get('/_sandbox/?done=clock&seconds=%3Cb%3E')).text).not.toContain('role="status"');
    expect((await get('/_sandbox/?done=faults')).text).toContain(
      '<p class="done" role="status">Fault knobs applied.</p>',
    );
    const refused = await post('/_sandbox/inspector/clock', [['advance_seconds', '-5']]);
    expect(refused.text).toContain('The clock was not moved: give the seconds to advance by as a number, 0 or more.');
  });

  it('shows the newest rows of each table, with a count of the others, however much the sandbox holds', async () => {
    // A sandbox that handed out codes for days: one real code, copied under 30,000 others.
    const issuedOne = new URL(`${sb.url}${await iframeUrl({ workspace_id: 101 })}`).searchParams.get('code')!;
    const session = sb.store.state.iframe_sessions[issuedOne]!;
    for (let i = 0; i < 30_000; i++) sb.store.state.iframe_sessions[`code-${i}`] = { ...session };
    const event = sb.store.state.events.at(-1) ?? {
      id: 0,
      type: 'workspace_created',
      occurred_at: 0,
      workspace_id: 101,
    };
    for (let i = 0; i < 30_000; i++) sb.store.state.events.push({ ...(event as any), id: 1_000_000 + i });
    for (let i = 0; i <= INSPECTOR_ROWS; i++) await sb.app.inject({ method: 'GET', url: '/api/v3/workspaces' });
    const page = await get('/_sandbox/');
    expect(page.status).toBe(200);
    const codeRows = page.text.slice(page.text.indexOf('id="iframe-codes"')).match(/<tr><td>/g) ?? [];
    expect(codeRows).toHaveLength(INSPECTOR_ROWS);
    const issued = Object.keys(sb.store.state.iframe_sessions).length;
    expect(page.text).toContain(
      `${issued - INSPECTOR_ROWS} older not shown (all of them: <code>GET /_sandbox/state (iframe_sessions)</code>)`,
    );
    // The newest code is the first row.
    const newest = Object.keys(sb.store.state.iframe_sessions).at(-1)!;
    expect(page.text.slice(page.text.indexOf('id="iframe-codes"'))).toMatch(
      new RegExp(`<tbody>\\n<tr><td>${newest.slice(0, 6)}…`),
    );
    // The journal kept its last 1,000 requests; the page shows its newest rows.
    const requestRows = page.text.slice(page.text.indexOf('id="requests"'), page.text.indexOf('id="deliveries"'));
    expect(requestRows.match(/<tr><td>/g)).toHaveLength(INSPECTOR_ROWS);
    expect(requestRows).toContain('older not shown (all of them: <code>GET /_sandbox/requests</code>)');
    const eventRows = page.text.slice(page.text.indexOf('id="events"'), page.text.indexOf('id="outbox"'));
    expect(eventRows.match(/<tr><td>/g)).toHaveLength(INSPECTOR_ROWS);
    expect(eventRows).toContain(`<tr><td>${1_000_000 + 29_999}</td>`);
    expect(eventRows).toContain(`${sb.store.state.events.length - INSPECTOR_ROWS} older not shown`);
    expect(page.text.length).toBeLessThan(400_000);
  });

  it('frames only its own iframe and link pages, at the address it hands them out with', async () => {
    const own = `${sb.url}${await iframeUrl({ workspace_id: 101, name: 'google_ads' })}`;
    const page = await get(`/_sandbox/embed-example?url=${encodeURIComponent(own)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<iframe src="${own.replace(/&/g, '&#38;')}"`);
    const token = sb.store.state.external_auth_links.find((l) => l.status === 'not_used')!.token;
    const link = await get(`/_sandbox/embed-example?url=${encodeURIComponent(`${sb.url}/connect/${token}`)}`);
    expect(link.text).toContain(`<iframe src="${sb.url}/connect/${token}"`);
    const port = new URL(sb.url).port;
    for (const url of [
      'https://attacker.example/',
      `http://127.0.0.1:1/api/v3/iframe/?code=a`,
      `http://localhost:${port}/api/v3/iframe/?code=a`,
      `${sb.url}/_sandbox/state`,
      `${sb.url}/_sandbox/`,
      `${sb.url}/api/v3/workspaces`,
      `${sb.url}/connect/flow/x/signin`,
      `http://user:pass@127.0.0.1:${port}/api/v3/iframe/?code=a`,
      'javascript:alert(1)',
      'not a url',
    ]) {
      const r = await get(`/_sandbox/embed-example?url=${encodeURIComponent(url)}`);
      expect(r.status, url).toBe(400);
      expect(r.text, url).not.toContain('<iframe');
      expect(r.text).toContain('The url query parameter must be an iframe URL or a link this sandbox handed out');
    }
    const none = await get('/_sandbox/embed-example');
    expect(none.status).toBe(200);
    expect(none.text).not.toContain('<iframe');
  });

  it('answers only requests addressed to this machine', async () => {
    const res = await sb.app.inject({ method: 'GET', url: '/_sandbox/', headers: { ...HTML, host: 'example.com' } });
    expect(res.statusCode).toBe(403);
  });
});
