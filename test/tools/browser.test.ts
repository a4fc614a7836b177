import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { advanceClock, control, http, sandbox, tempDir, tokenFor, waitUntil } from '../helpers.js';
import { runBuiltInProcess } from '../e2e/built-in-process.js';
import { ROOT, operatorEnv, requireBuild } from '../e2e/helpers.js';

/**
 * The client's side in a real browser: Debian's Chromium, driven by playwright-core, clicks
 * through the sandbox's iframe and link pages (also framed by a page of another origin) and
 * the inspector; the built `edp` then shows what was made. Every page passes axe-core's checks;
 * screenshots are kept in test-artifacts/browser/. Without Chromium (`.ci/run` installs it
 * where apt can) the file is skipped, saying so.
 *
 * The built command line runs in this process (./built-in-process.ts): what it lists is what is
 * judged here, and a process of its own would add a Node start per run and nothing to the
 * verdict (test/e2e/cli.test.ts and the others run it as a process).
 */

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
/**
 * The browser itself: Debian's /usr/bin/chromium is a shell script that adds desktop flags
 * (extensions, GPU rasterization) before starting this binary.
 */
const CHROMIUM_BINARY = ['/usr/lib/chromium/chromium', CHROMIUM].find((path) => existsSync(path));
const ARTIFACTS = join(ROOT, 'test-artifacts', 'browser');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const dir = tempDir('edp-e2e-browser-');
let sb: Sandbox;
let browser: Browser;
/** The browser context of the file's page (see beforeAll). */
let context: BrowserContext;
/** The one page every test drives (see openPage). */
let tab: Page;
/** The operator's site: another origin that frames the sandbox's pages, and a webhook receiver. */
let operator: Server;
let operatorUrl: string;

const edp = (argv: string[]) =>
  runBuiltInProcess(['-w', '101', ...argv], { env: operatorEnv(sb.url, join(dir.dir, 'config')) });

async function edpJson(argv: string[]): Promise<any> {
  const r = await edp([...argv, '--json']);
  if (r.code !== 0) throw new Error(`edp ${argv.join(' ')}: ${r.code} ${r.stderr}`);
  return r.json();
}

/** `edp links create` for google_ads, asked for by the sandbox's agency user (a confirmation goes to the outbox). */
function sendLink(): Promise<any> {
  const to = ['--to', 'client@example.com', '--requested-by', 'agency@sandbox.local'];
  return edpJson(['links', 'create', '--data-source', 'google_ads', ...to]);
}

function startOperator(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://operator');
    if (url.pathname === '/hook') {
      // Webhook receiver: answers the verification with its challenge, and takes deliveries.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(req.method === 'GET' ? String(req.headers['x-service-challenge'] ?? '') : 'ok');
      return;
    }
    if (url.pathname === '/forms') {
      // A page of another origin on this machine posting the inspector's forms to the sandbox,
      // each into a frame of its own (the page stays): the Origin names this page.
      const target = (url.searchParams.get('target') ?? '').replace(/"/g, '&quot;');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another page</title></head>
<body><main><h1>Another page</h1>
<iframe name="faults-answer" title="faults"></iframe><iframe name="clock-answer" title="clock"></iframe>
<form id="faults" method="post" action="${target}/_sandbox/inspector/faults" target="faults-answer">
<input name="fail_rate" value="1" aria-label="fail rate"></form>
<form id="clock" method="post" action="${target}/_sandbox/inspector/clock" target="clock-answer">
<input name="advance_seconds" value="950400" aria-label="seconds"></form></main>
<script>document.getElementById('faults').submit(); document.getElementById('clock').submit();</script>
</body></html>`);
      return;
    }
    const frame = url.searchParams.get('url') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Operator's product</title></head>
<body><main><h1>Operator's product</h1>
<iframe src="${frame.replace(/"/g, '&quot;')}" title="Connect a data source" style="width:100%;height:40rem"></iframe>
<h2>Messages</h2><ol id="messages"></ol></main>
<script>window.addEventListener('message', function (e) {
  var li = document.createElement('li');
  li.textContent = e.origin + ' ' + JSON.stringify(e.data);
  document.getElementById('messages').appendChild(li);
});</script></body></html>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** No accessibility violation on the page (or frame) as axe-core sees it (openPage loads axe). */
async function expectAccessible(target: Page | Frame): Promise<void> {
  const violations = await target.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: any[] }> } }).axe.run();
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target).join(', ')})`);
  });
  expect(violations).toEqual([]);
}

/**
 * The file's page, blank, at the test's viewport (by default 1280×720, a fresh context's). One
 * page for every test, as a person's one tab: a new page costs Chromium a renderer's start (about
 * a second each here), and a page keeps nothing a later test could meet (see beforeAll) once it
 * is back at about:blank.
 */
async function openPage(options: { viewport?: { width: number; height: number } } = {}): Promise<Page> {
  await tab.goto('about:blank');
  await tab.setViewportSize(options.viewport ?? { width: 1280, height: 720 });
  return tab;
}

/** Waits until `locator` shows `text`, then holds it to that (case and all). */
async function expectText(locator: Locator, text: string): Promise<void> {
  await locator.filter({ hasText: text }).waitFor();
  expect(await locator.textContent()).toContain(text);
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The sandbox's sign-in, as a client fills it in. */
async function signIn(target: Page | Frame, what: string, email = 'client@example.com'): Promise<void> {
  await target.getByLabel(`E-mail address at ${what}`).fill(email);
  await target.getByRole('checkbox', { name: /Allow .* to read the reports/ }).check();
  await target.getByRole('button', { name: 'Sign in and allow' }).click();
}

/** The address of a flow already completed, opened again: `status`, and an alert saying so. */
async function expectUsed(page: Page, url: string, status: number): Promise<void> {
  const again = await page.goto(url);
  expect(again!.status()).toBe(status);
  expect(await page.getByRole('alert').textContent()).toContain('already been used');
  await expectAccessible(page);
}

/** The ids of every connection the sandbox holds, to tell which one a flow adds. */
const knownConnections = () => new Set(sb.store.state.connections.map((c) => c.id));

/** The one google_ads connection `edp connections list` shows that was not known before. */
async function newConnection(known: Set<number>): Promise<any> {
  const after = await edpJson(['connections', 'list', '--data-source', 'google_ads']);
  const added = after.filter((c: { id: number }) => !known.has(c.id));
  expect(added).toHaveLength(1);
  return added[0];
}

const accountTitles = async (connectionId: number) =>
  (await edpJson(['accounts', 'list', '--connection', String(connectionId)])).map((a: { title: string }) => a.title);

/** Generous: the machine running the tests may be busy; nothing here waits on time itself. */
const TEST_TIMEOUT_MS = 90_000;

describe.skipIf(!HAVE_CHROMIUM)(
  HAVE_CHROMIUM
    ? 'the client side in Chromium'
    : `the client side in Chromium: skipped, no browser at ${CHROMIUM} (.ci/run installs Debian's chromium where apt is available)`,
  { timeout: TEST_TIMEOUT_MS },
  () => {
    beforeAll(async () => {
      requireBuild();
      mkdirSync(ARTIFACTS, { recursive: true });
      // One browser for the file, started while the servers start. Without the
      // background-networking flags Chromium waits on the network; playwright gives each launch
      // a fresh profile directory.
      [sb, operator, browser] = await Promise.all([
        sandbox({ webhookDelay: 0 }),
        startOperator(),
        chromium.launch({
          executablePath: CHROMIUM_BINARY,
          headless: true,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        }),
      ]);
      operatorUrl = `http://127.0.0.1:${(operator.address() as AddressInfo).port}`;
      // One context and one page for every test: a context or a page of its own would isolate
      // nothing, as the pages keep nothing in it that another test could meet. The sandbox sets
      // no cookie (a flow is in the page's address and on the server, its pages are sent with
      // cache-control: no-store), neither its pages nor the operator's use storage (their scripts
      // only post and show messages), and each test makes its own flow or link. axe-core is in
      // every document a page loads, from its start: Chromium runs a script given this way for a
      // fraction of what compiling it again for each check costs.
      context = await browser.newContext();
      await context.addInitScript({ content: AXE });
      tab = await context.newPage();
      // Playwright's waits end before the test's, so a failure names what it waited for.
      tab.setDefaultTimeout(30_000);
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      if (operator) {
        operator.closeAllConnections();
        await new Promise((r) => operator.close(r));
      }
      await sb?.close();
      dir.remove();
    });

    it('iframe, one step: signing in makes a connection with every account', async () => {
      const known = knownConnections();
      const [{ url }, page] = await Promise.all([
        edpJson(['iframe-url', '--type', 'datasource', '--name', 'google_ads']),
        openPage(),
      ]);
      const first = await page.goto(url);
      expect(first!.status()).toBe(200);
      await expectAccessible(page);
      await screenshot(page, 'iframe-sign-in');
      await signIn(page, 'Google Ads');
      await expectText(page.getByRole('status'), 'Connected');
      await expectAccessible(page);
      // While edp lists what was made: the code is spent, the same URL now says so.
      const [c] = await Promise.all([newConnection(known), expectUsed(page, url, 404)]);
      expect(c.accounts_number).toBe(3);
      expect(await accountTitles(c.id)).toEqual(['Client account 1', 'Client account 2', 'Client account 3']);
    });

    it('iframe, two steps: the connection has the accounts picked', async () => {
      const known = knownConnections();
      const [{ url }, page] = await Promise.all([
        edpJson([
          'iframe-url',
          '--type',
          'datasource',
          '--name',
          'google_ads',
          '--show-account-selection',
          '--use-default-auth',
        ]),
        openPage({ viewport: { width: 720, height: 640 } }),
      ]);
      expect(url).toContain('show_account_selection=True');
      await page.goto(url);
      expect(await page.getByText('Authentication method').count()).toBe(0);
      await signIn(page, 'Google Ads');
      await page.getByRole('heading', { name: 'Choose accounts' }).waitFor();
      await expectAccessible(page);
      await page.getByLabel('Only the accounts picked below').check();
      await page.getByRole('checkbox', { name: /Client account 1\b/ }).check();
      await page.getByRole('checkbox', { name: /Client account 3\b/ }).check();
      await screenshot(page, 'iframe-accounts');
      await page.getByRole('button', { name: 'Connect' }).click();
      await expectText(page.getByRole('status'), 'Connected');
      const c = await newConnection(known);
      expect(c.accounts_number).toBe(2);
      expect(await accountTitles(c.id)).toEqual(['Client account 1', 'Client account 3']);
    });

    it('iframe, two steps: ticking accounts chooses them, without touching "Sync all accounts"', async () => {
      const known = knownConnections();
      const [{ url }, page] = await Promise.all([
        edpJson(['iframe-url', '--type', 'datasource', '--name', 'google_ads', '--show-account-selection']),
        openPage(),
      ]);
      await page.goto(url);
      await signIn(page, 'Google Ads');
      await page.getByRole('heading', { name: 'Choose accounts' }).waitFor();
      expect(await page.getByLabel('Sync all accounts').isChecked()).toBe(true);
      await page.getByRole('checkbox', { name: /Client account 2\b/ }).check();
      expect(await page.getByLabel('Only the accounts picked below').isChecked()).toBe(true);
      // Choosing all again unticks the account; ticking one chooses "only" again.
      await page.getByLabel('Sync all accounts').check();
      expect(await page.getByRole('checkbox', { name: /Client account 2\b/ }).isChecked()).toBe(false);
      await page.getByRole('checkbox', { name: /Client account 3\b/ }).check();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Connect' }).click();
      await expectText(page.getByRole('status'), 'Connected');
      const c = await newConnection(known);
      expect(c.accounts_number).toBe(1);
      expect(await accountTitles(c.id)).toEqual(['Client account 3']);
    });

    it('link: names who asked, connects by keyboard alone, then the link is used and says so', async () => {
      const known = knownConnections();
      const [[link], page] = await Promise.all([sendLink(), openPage()]);
      await page.goto(link.url);
      await expectText(page.locator('main'), 'Avery Chief asks you to connect Google Ads');
      await expectAccessible(page);
      await screenshot(page, 'link-sign-in');
      // Keyboard only: the e-mail is prefilled with the link's recipient.
      await page.getByLabel('E-mail address at Google Ads').focus();
      await page.keyboard.press('Tab'); // to the consent box
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab'); // to the button
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Choose accounts' }).waitFor();
      await page.getByRole('button', { name: 'Connect' }).focus();
      await page.keyboard.press('Enter'); // sync all accounts, the default
      await expectText(page.getByRole('status'), 'Connected');
      // While edp lists what was made: the link is used, and says so.
      const [c, links] = await Promise.all([
        newConnection(known),
        edpJson(['links', 'list', '--data-source', 'google_ads']),
        expectUsed(page, link.url, 410).then(() => screenshot(page, 'link-used')),
      ]);
      expect(c.accounts_number).toBe(3);
      expect(links.find((l: { id: number }) => l.id === link.id)).toMatchObject({
        status: 'used',
        connection_id: c.id,
      });
      expect(sb.store.state.outbox.at(-1)).toMatchObject({
        to: 'agency@sandbox.local',
        kind: 'confirmation',
        link_ids: [link.id],
      });
    });

    it('embedded in a page of another origin: the flow completes and posts ConnectionCreated to that page', async () => {
      const known = knownConnections();
      const [{ url }, page] = await Promise.all([
        edpJson(['iframe-url', '--type', 'datasource', '--name', 'google_ads']),
        openPage(),
      ]);
      await page.goto(`${operatorUrl}/?url=${encodeURIComponent(url)}`);
      const frame = await waitUntil(() => page.frames().find((f) => f.url().startsWith(sb.url)), {
        what: 'the framed page',
        timeoutMs: 20_000,
      });
      await frame.getByLabel('E-mail address at Google Ads').waitFor();
      await expectAccessible(frame);
      await signIn(frame, 'Google Ads');
      await expectText(page.locator('#messages'), '"type":"ConnectionCreated"');
      const message = (await page.locator('#messages li').first().textContent())!;
      expect(message.startsWith(`${sb.url} `)).toBe(true);
      const posted = JSON.parse(message.slice(`${sb.url} `.length));
      const [c, accounts] = await Promise.all([
        newConnection(known),
        edpJson(['accounts', 'list', '--connection', String(posted.connection_id)]),
        screenshot(page, 'embedded'),
      ]);
      expect(posted).toMatchObject({
        type: 'ConnectionCreated',
        connection_id: c.id,
        account_ids: accounts.map((a: { id: number }) => a.id),
      });
    });

    it('a page of another origin on this machine can neither post the inspector forms nor frame the inspector', async () => {
      const page = await openPage();
      const [clock, failRate] = [sb.store.clock.now(), sb.store.opts.failRate];
      const answers = ['faults', 'clock'].map((form) =>
        page.waitForResponse((r) => r.url() === `${sb.url}/_sandbox/inspector/${form}`),
      );
      await page.goto(`${operatorUrl}/forms?target=${encodeURIComponent(sb.url)}`);
      for (const answer of await Promise.all(answers)) expect(answer.status()).toBe(403);
      expect(sb.store.opts.failRate).toBe(failRate);
      expect(sb.store.clock.now()).toBe(clock);
      // Framed, the inspector is not shown: the browser puts its error page in the frame.
      const framed = page.waitForResponse((r) => r.url() === `${sb.url}/_sandbox/`);
      await page.goto(`${operatorUrl}/?url=${encodeURIComponent(`${sb.url}/_sandbox/`)}`);
      expect((await framed).headers()['content-security-policy']).toBe("frame-ancestors 'self'");
      const frame = await waitUntil(() => page.frames().find((f) => f !== page.mainFrame()), {
        what: 'the frame',
        timeoutMs: 20_000,
      });
      await frame.waitForLoadState();
      expect(frame.url()).not.toContain('/_sandbox/');
    });

    it("the inspector shows the session's requests, webhook deliveries with their retries, and the outbox", async () => {
      // A receiver subscribed to the event a new connection emits; its first answer is lost.
      // Meanwhile edp makes the iframe URL and sends a link, which puts a message in the outbox
      // whatever the order of the tests.
      const subscribe = async () => {
        const token = await tokenFor(sb, 101);
        const ep = await http(sb, 'POST', '/api/v3/webhook_endpoints/', {
          token,
          body: { url: `${operatorUrl}/hook`, event_types: ['workspace_connector_changed'] },
        });
        expect(ep.status).toBe(201);
        expect((await http(sb, 'POST', `/api/v3/webhook_endpoints/${ep.body.id}/verify/`, { token })).status).toBe(200);
        await control(sb, 'PATCH', '/webhooks', { retry_delays: [0, 0, 0, 0], lost_answers: 1 });
        return ep.body.id as number;
      };
      const [endpointId, { url }, , page] = await Promise.all([
        subscribe(),
        edpJson(['iframe-url', '--type', 'datasource', '--name', 'google_ads']),
        sendLink(),
        openPage({ viewport: { width: 1280, height: 900 } }),
      ]);
      await page.goto(url);
      await signIn(page, 'Google Ads');
      await expectText(page.getByRole('status'), 'Connected');
      const deliveries = await waitUntil(
        async () => {
          await advanceClock(sb, 1);
          const d = (await control(sb, 'GET', `/webhook-deliveries?endpoint_id=${endpointId}`)) as any[];
          return d.some((x) => x.outcome === 'delivered') ? d : undefined;
        },
        { what: 'a delivery', timeoutMs: 20_000, intervalMs: 50 },
      );
      // The operator opens the inspector in the same browser (it answers the same to anyone).
      await page.goto(`${sb.url}/_sandbox/`);
      const text = (await page.locator('main').textContent())!;
      expect(text).toContain('/api/v3/get_iframe_url');
      expect(text).toContain('/connect/flow/');
      expect(text).toContain('workspace_connector_changed');
      expect(text).toContain(deliveries[0].signature);
      const rows = page.locator('#deliveries ~ table tbody tr, section[aria-labelledby="deliveries"] tbody tr');
      expect(await rows.count()).toBeGreaterThanOrEqual(2);
      expect(text).toContain('the answer was lost');
      expect(text).toContain('Links sent to connect Google Ads'); // the outbox
      // Long paths, codes and signatures wrap in their cells: nothing runs past a 1280 px window.
      const overflow = await page.evaluate(() => {
        const w = globalThis as unknown as {
          innerWidth: number;
          document: { documentElement: { scrollWidth: number } };
        };
        return w.document.documentElement.scrollWidth - w.innerWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      await expectAccessible(page);
      await screenshot(page, 'inspector');
      // The clock form moves the sandbox's clock.
      const was = sb.store.clock.now();
      await page.getByLabel('Advance the clock by (seconds)').fill('3600');
      await page.getByRole('button', { name: 'Advance' }).click();
      await expectText(page.getByRole('status'), 'Clock advanced by 3600 s.');
      expect(sb.store.clock.now() - was).toBeGreaterThanOrEqual(3_600_000);
    });

    it("the inspector's snapshot forms take a snapshot and restore it, by their labels", async () => {
      const page = await openPage();
      await page.goto(`${sb.url}/_sandbox/`);
      await page.getByLabel('Snapshot name (letters, digits, - and _)').fill('browser-1');
      await page.getByRole('button', { name: 'Take snapshot' }).click();
      await expectText(page.getByRole('status'), 'Snapshot browser-1 taken.');
      const taken = (await http(sb, 'GET', '/_sandbox/state')).text;
      await advanceClock(sb, 60);
      // With a snapshot listed, the page has its restore form too, and stays accessible.
      await expectAccessible(page);
      await page.getByLabel('Snapshot to restore').selectOption('browser-1');
      await page.getByRole('button', { name: 'Restore' }).click();
      await expectText(page.getByRole('status'), 'Snapshot browser-1 restored.');
      expect((await http(sb, 'GET', '/_sandbox/state')).text).toBe(taken);
    });
  },
);
