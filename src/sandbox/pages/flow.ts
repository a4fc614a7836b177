import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { iframePageQuery } from '../../contract/requests.js';
import { invalidQuery, SandboxError, sendError } from '../errors.js';
import { emitDestinationConnection } from '../routes/extraction/model.js';
import { dataSource } from '../routes/sources/model.js';
import { inviterOf, linkStatus, useLink, type ExternalAuthLink } from '../routes/sources/links.js';
import type { Store } from '../store.js';
import type { DestinationConnection, IframeSession } from '../types.js';
import { candidatesFor, createConnection, flowId, seedOf, type Candidate } from './connect.js';
import {
  esc,
  field,
  formFields,
  page,
  sandboxNote,
  sendErrorPage,
  sendPage,
  wantsHtml,
  type FormFields,
} from './html.js';

/**
 * The connect flow behind the iframe page and the external authentication link page: choose a
 * data source (or destination), sign in at a stand-in for the provider, pick accounts when the
 * two-step flow is asked for, then the connection. Each step is a plain form posted to
 * `/connect/flow/{id}/…` and answered with a redirect to `/connect/flow/{id}` (so that a reload
 * never posts twice); the flow's progress is kept here, in memory, for the sandbox's lifetime.
 */

/**
 * How long an iframe code stays usable. The contract does not say; the sandbox's choice, long
 * enough to click through, short enough that a code is not a lasting credential.
 */
export const IFRAME_CODE_LIFETIME_MS = 60 * 60 * 1000;

type Origin = { kind: 'iframe'; code: string } | { kind: 'link'; linkId: number };
type Step = 'choose' | 'signin' | 'accounts' | 'done';

interface Flow {
  id: string;
  origin: Origin;
  workspaceId: number;
  type: 'datasource' | 'destination';
  /** the data source or destination, once known */
  name: string | null;
  step: Step;
  /** show_account_selection=True: authorize, then pick accounts */
  twoStep: boolean;
  /** use_default_auth=True: no chooser of authentication methods */
  defaultAuth: boolean;
  /** the flags of `get_iframe_url` (none for a link) */
  options: Record<string, boolean>;
  email: string;
  candidates: Candidate[];
  /** a message for the next rendering of the step (a form left incomplete) */
  error?: string;
  result?: {
    title: string;
    id: number;
    kind: 'connection' | 'destination connection';
    accounts: Candidate[];
    /** the accounts' ids in the workspace (what recipes and extractions name) */
    accountIds: number[];
  };
}

const flowsByStore = new WeakMap<Store, Map<string, Flow>>();

/**
 * The flows kept. Each opening of a page starts one, and a page may be opened any number of
 * times, so what one person does must not push out the others' sign-ins in progress: each code
 * or link keeps its newest FLOWS_PER_PAGE flows (a reload, the same page in another tab), and
 * beyond FLOW_LIMIT in all, a new one first takes the place of a flow that can no longer make a
 * connection (its code or link spent, expired or revoked), and is otherwise refused (503) until
 * flows end that way.
 */
export const FLOW_LIMIT = 500;
export const FLOWS_PER_PAGE = 10;

function flows(store: Store): Map<string, Flow> {
  let map = flowsByStore.get(store);
  if (!map) flowsByStore.set(store, (map = new Map()));
  return map;
}

const sameOrigin = (a: Origin, b: Origin) =>
  a.kind === 'iframe' ? b.kind === 'iframe' && a.code === b.code : b.kind === 'link' && a.linkId === b.linkId;

/** Keeps a new flow (see FLOW_LIMIT), or undefined when it may not. */
function keep(store: Store, flow: Flow): Flow | undefined {
  const map = flows(store);
  const mine = [...map.values()].filter((f) => sameOrigin(f.origin, flow.origin));
  if (mine.length >= FLOWS_PER_PAGE) map.delete(mine[0]!.id);
  else if (map.size >= FLOW_LIMIT) {
    const ended = [...map.values()].find((f) => f.step === 'done' || originProblem(store, f) !== undefined);
    if (!ended) return undefined;
    map.delete(ended.id);
  }
  map.set(flow.id, flow);
  return flow;
}

/** Why a page cannot start a flow now (FLOW_LIMIT), for a person and for a program. */
const BUSY = `This sandbox has ${FLOW_LIMIT} sign-ins in progress, the most it keeps. Finish or abandon some (an iframe code is good for an hour), or restart the sandbox, then open this page again.`;

function sendBusy(store: Store, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const retry = { 'retry-after': String(IFRAME_CODE_LIFETIME_MS / 1000) };
  if (!wantsHtml(request))
    return sendError(request, reply, new SandboxError(503, 'service_unavailable', BUSY, {}, {}, retry));
  return sendErrorPage(reply.headers(retry), 503, brand(store), 'Too many sign-ins in progress', BUSY);
}

const brand = (store: Store) => store.state.agency.whitelabel_title;

/** Why an iframe code can no longer be used, or undefined. */
export function iframeCodeProblem(store: Store, session: IframeSession | undefined): string | undefined {
  if (!session) return 'This connection page was opened with an unknown code. Ask for a new link.';
  if (session.used_at) return 'This code has already been used to make a connection. Ask for a new link.';
  if (session.issued_ms !== undefined && store.clock.now() >= session.issued_ms + IFRAME_CODE_LIFETIME_MS)
    return 'This code has expired. Ask for a new link.';
  return undefined;
}

const LINK_REASONS: Record<string, string> = {
  used: 'This link has already been used: the connection it was sent for has been made.',
  expired: 'This link has expired: links are valid for 14 days.',
  revoked_manually: 'This link has been revoked by the person who sent it.',
};

/** Why a link can no longer be used, or undefined. */
export function linkProblem(store: Store, link: ExternalAuthLink): string | undefined {
  const status = linkStatus(store, link);
  return status === 'not_used' ? undefined : (LINK_REASONS[status] ?? `This link is ${status}.`);
}

function linkOf(store: Store, id: number): ExternalAuthLink | undefined {
  return store.state.external_auth_links.find((l) => l.id === id);
}

/** Why the flow's code or link can no longer make a connection, or undefined. */
function originProblem(store: Store, flow: Flow): string | undefined {
  if (flow.origin.kind === 'iframe') return iframeCodeProblem(store, store.state.iframe_sessions[flow.origin.code]);
  const link = linkOf(store, flow.origin.linkId);
  return link ? linkProblem(store, link) : 'This link no longer exists.';
}

function titleOf(store: Store, flow: Flow, name: string | null = flow.name): string {
  if (!name) return '';
  if (flow.type === 'destination') return store.state.destinations.find((d) => d.name === name)?.title ?? name;
  return dataSource(store, name)?.title ?? name;
}

export function iframeFlow(
  store: Store,
  code: string,
  session: IframeSession,
  query: Record<string, unknown>,
): Flow | undefined {
  const type = session.type === 'destination' ? 'destination' : 'datasource';
  return keep(store, {
    id: flowId(),
    origin: { kind: 'iframe', code },
    workspaceId: session.workspace_id,
    type,
    name: session.name,
    step: session.name ? 'signin' : 'choose',
    // The caller adds these to the URL it was given, spelled `True` (docs/contract-rules.md, Iframe URL).
    twoStep: /^true$/i.test(String(query.show_account_selection ?? '')),
    defaultAuth: /^true$/i.test(String(query.use_default_auth ?? '')),
    options: session.options,
    email: '',
    candidates: candidatesFor(seedOf(code)),
  });
}

export function linkFlow(store: Store, link: ExternalAuthLink, query: Record<string, unknown>): Flow | undefined {
  return keep(store, {
    id: flowId(),
    origin: { kind: 'link', linkId: link.id },
    workspaceId: link.workspace_id,
    type: 'datasource',
    name: link.datasource_name,
    step: 'signin',
    // A link's page picks accounts when the data source can list them before the connection.
    twoStep: !/^false$/i.test(String(query.show_account_selection ?? '')),
    defaultAuth: /^true$/i.test(String(query.use_default_auth ?? '')),
    options: {},
    email: link.email,
    candidates: candidatesFor(link.id),
  });
}

const option = (flow: Flow, key: string, fallback: boolean) => flow.options[key] ?? fallback;

/** The line that says who asks for what. */
function intro(store: Store, flow: Flow): string {
  if (flow.origin.kind === 'link') {
    const link = linkOf(store, flow.origin.linkId);
    const who = link ? inviterOf(store, link) : brand(store);
    return `<p>${esc(who)} asks you to connect ${esc(titleOf(store, flow))}, so that ${esc(brand(store))} can read the reports of your accounts.</p>`;
  }
  const ws = store.workspace(flow.workspaceId);
  const what = flow.type === 'destination' ? 'a destination' : 'a data source';
  return `<p>Connect ${what} to the workspace “${esc(ws?.title ?? '')}”.</p>`;
}

/** The workspace's existing connections (iframe `show_datasources`), with their accounts (`show_accounts`). */
function existing(store: Store, flow: Flow): string {
  if (flow.origin.kind !== 'iframe' || flow.type !== 'datasource' || !option(flow, 'show_datasources', true)) return '';
  const conns = store.state.connections.filter(
    (c) => c.workspace_id === flow.workspaceId && !c.deleted && (!flow.name || c.datasource_name === flow.name),
  );
  if (conns.length === 0) return '';
  const withAccounts = option(flow, 'show_accounts', true);
  const items = conns
    .map((c) => {
      const accounts = withAccounts
        ? store.state.accounts.filter((a) => a.connection_id === c.id && a.is_active).map((a) => esc(a.title))
        : [];
      const list = accounts.length ? `<ul>${accounts.map((a) => `<li>${a}</li>`).join('')}</ul>` : '';
      return `<li>${esc(c.title)}${list}</li>`;
    })
    .join('');
  return `<section aria-labelledby="existing"><h2 id="existing">Already connected</h2><ul>${items}</ul></section>`;
}

function errorLine(flow: Flow): string {
  return flow.error ? `<p class="error" role="alert" id="form-error">${esc(flow.error)}</p>` : '';
}

function chooseStep(store: Store, flow: Flow): string {
  const list =
    flow.type === 'destination'
      ? store.state.destinations.map((d) => ({ name: d.name, title: d.title }))
      : store.state.datasources.map((d) => ({ name: d.name, title: d.title }));
  // show_connectors_list=false: no catalogue to choose from; the page can only be opened with a name.
  if (!option(flow, 'show_connectors_list', true))
    return `<p>This page was opened without a ${esc(flow.type === 'destination' ? 'destination' : 'data source')} and without the list of connectors; there is nothing to choose.</p>`;
  const radios = list
    .map(
      (d, i) =>
        `<label><input type="radio" name="name" value="${esc(d.name)}"${i === 0 ? ' checked' : ''}> ${esc(d.title)}</label>`,
    )
    .join('\n');
  const legend = flow.type === 'destination' ? 'Choose a destination' : 'Choose a data source';
  return `${errorLine(flow)}<form method="post" action="/connect/flow/${esc(flow.id)}/choose">
<fieldset><legend>${legend}</legend>
${radios}
</fieldset>
<button type="submit">Continue</button>
</form>`;
}

function signinStep(store: Store, flow: Flow): string {
  const what = titleOf(store, flow);
  const methods = flow.defaultAuth
    ? '<input type="hidden" name="auth_method" value="oauth">'
    : `<fieldset><legend>Authentication method</legend>
<label><input type="radio" name="auth_method" value="oauth" checked> Sign in with ${esc(what)} (default)</label>
<label><input type="radio" name="auth_method" value="api_key"> Use an API key</label>
</fieldset>`;
  return `${sandboxNote(
    `This stands in for the ${esc(what)} sign-in. No real provider is contacted and no password is asked; any e-mail address works.`,
  )}
${errorLine(flow)}<form method="post" action="/connect/flow/${esc(flow.id)}/signin">
<h2>Sign in to ${esc(what)}</h2>
${methods}
<label for="email">E-mail address at ${esc(what)}</label>
<input type="email" id="email" name="email" autocomplete="email" value="${esc(flow.email)}" required>
<label><input type="checkbox" name="consent" value="yes"> Allow ${esc(brand(store))} to read the reports of my ${esc(what)} accounts</label>
<button type="submit">Sign in and allow</button>
</form>`;
}

function accountsStep(store: Store, flow: Flow): string {
  const boxes = flow.candidates
    .map(
      (c) =>
        `<label><input type="checkbox" name="account" value="${esc(c.remote)}"> ${esc(c.title)} (${esc(c.remote)})</label>`,
    )
    .join('\n');
  return `${sandboxNote(`Signed in. These are the accounts the sandbox's ${esc(titleOf(store, flow))} lists for you.`)}
${errorLine(flow)}<form method="post" action="/connect/flow/${esc(flow.id)}/accounts" id="accounts-form">
<fieldset><legend>Which accounts should be synced?</legend>
<label><input type="radio" name="scope" value="all" checked> Sync all accounts</label>
<label><input type="radio" name="scope" value="some"> Only the accounts picked below</label>
</fieldset>
<fieldset><legend>Accounts</legend>
${boxes}
</fieldset>
<button type="submit">Connect</button>
</form>`;
}

const ACCOUNTS_UNCLEAR =
  'You ticked accounts but chose “Sync all accounts”. Choose “Only the accounts picked below” to sync just those, or untick them to sync all.';

/**
 * The account step kept coherent as a person uses it: ticking an account chooses "only the
 * accounts picked", choosing "all" unticks them. Without scripts the server refuses the mix
 * (ACCOUNTS_UNCLEAR).
 */
const ACCOUNTS_SCRIPT = `(function () {
  var form = document.getElementById('accounts-form');
  if (!form) return;
  form.addEventListener('change', function (e) {
    var t = e.target;
    if (t.name === 'account' && t.checked) form.querySelector('input[name=scope][value=some]').checked = true;
    if (t.name === 'scope' && t.value === 'all')
      form.querySelectorAll('input[name=account]').forEach(function (box) { box.checked = false; });
  });
})();`;

/** The message the page posts to the window that embeds it, once the connection exists. */
function connectionCreatedScript(flow: Flow): string {
  const r = flow.result!;
  const message = {
    type: 'ConnectionCreated',
    connection_id: r.id,
    kind: r.kind,
    name: flow.name,
    account_ids: r.accountIds,
  };
  // JSON inside a script element: `<` escaped so that no value can close the element.
  const json = JSON.stringify(message).replace(/</g, '\\u003c');
  return `if (window.parent !== window) window.parent.postMessage(${json}, '*');`;
}

function doneStep(store: Store, flow: Flow): string {
  const r = flow.result!;
  // show_accounts=false hides accounts, unless show_accounts_only_on_auth asks for them here.
  const showAccounts =
    flow.origin.kind === 'link' ||
    option(flow, 'show_accounts', true) ||
    option(flow, 'show_accounts_only_on_auth', false);
  const accounts =
    showAccounts && r.accounts.length
      ? `<h2>Accounts</h2><ul>${r.accounts.map((a) => `<li>${esc(a.title)} (${esc(a.remote)})</li>`).join('')}</ul>`
      : r.kind === 'connection'
        ? `<p>${r.accounts.length} account(s) connected.</p>`
        : '';
  return `<p class="done" role="status">Connected: ${esc(r.title)} (${esc(r.kind)} ${r.id}). You can close this page.</p>
${accounts}`;
}

const STEP_TITLES: Record<Step, string> = {
  choose: 'Connect',
  signin: 'Sign in',
  accounts: 'Choose accounts',
  done: 'Connected',
};

export function renderFlow(store: Store, reply: FastifyReply, flow: Flow): FastifyReply {
  if (flow.step !== 'done') {
    const problem = originProblem(store, flow);
    if (problem) return sendErrorPage(reply, 410, brand(store), 'This page can no longer be used', problem);
  }
  const steps: Record<Step, () => string> = {
    choose: () => chooseStep(store, flow),
    signin: () => signinStep(store, flow),
    accounts: () => accountsStep(store, flow),
    done: () => doneStep(store, flow),
  };
  const body = `${intro(store, flow)}\n${flow.step === 'done' ? '' : existing(store, flow)}\n${steps[flow.step]()}`;
  const status = flow.error ? 400 : 200;
  delete flow.error;
  return sendPage(
    reply,
    status,
    page({
      title: STEP_TITLES[flow.step],
      brand: brand(store),
      body,
      ...(flow.step === 'done' ? { script: connectionCreatedScript(flow) } : {}),
      ...(flow.step === 'accounts' ? { script: ACCOUNTS_SCRIPT } : {}),
    }),
  );
}

/** Makes the connection the flow was for and spends its code or link. */
function complete(store: Store, flow: Flow, accounts: Candidate[]): void {
  const name = flow.name!;
  if (flow.type === 'destination') {
    const dc: DestinationConnection = {
      id: store.nextId('destination_connection'),
      workspace_id: flow.workspaceId,
      destination_name: name,
      title: `${titleOf(store, flow)} (${flow.email})`,
      status: 'active',
      connection_params: {},
      created_at: store.clock.iso(),
    };
    store.state.destination_connections.push(dc);
    emitDestinationConnection(store, 'destination_connection_created', dc);
    spendCode(store, flow, dc.id);
    flow.result = { title: dc.title, id: dc.id, kind: 'destination connection', accounts: [], accountIds: [] };
    return;
  }
  let connectionId: number;
  if (flow.origin.kind === 'link') {
    connectionId = useLink(store, linkOf(store, flow.origin.linkId)!, accounts).connectionId;
  } else {
    connectionId = createConnection(store, {
      workspaceId: flow.workspaceId,
      datasourceName: name,
      title: `${titleOf(store, flow)} (${flow.email})`,
      connectedBy: flow.email,
      accounts,
    }).id;
    spendCode(store, flow, connectionId);
  }
  const c = store.state.connections.find((x) => x.id === connectionId)!;
  const accountIds = store.state.accounts.filter((a) => a.connection_id === c.id).map((a) => a.id);
  flow.result = { title: c.title, id: c.id, kind: 'connection', accounts, accountIds };
}

function spendCode(store: Store, flow: Flow, connectionId: number): void {
  if (flow.origin.kind !== 'iframe') return;
  const session = store.state.iframe_sessions[flow.origin.code];
  if (!session) return;
  session.used_at = store.clock.iso();
  session.connection_id = connectionId;
  store.changed();
}

/** Applies a step's form to the flow; a refusal stays on the step with a message. */
function act(store: Store, flow: Flow, action: string, form: FormFields): void {
  if (action === 'choose' && flow.step === 'choose') {
    const name = field(form, 'name') ?? '';
    const known =
      flow.type === 'destination'
        ? store.state.destinations.some((d) => d.name === name)
        : store.state.datasources.some((d) => d.name === name);
    if (!known) flow.error = 'Choose one of the listed items.';
    else {
      flow.name = name;
      flow.step = 'signin';
    }
    return;
  }
  if (action === 'signin' && flow.step === 'signin') {
    const email = (field(form, 'email') ?? '').trim();
    flow.email = email;
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) flow.error = 'Enter an e-mail address.';
    else if (field(form, 'consent') !== 'yes') flow.error = 'Allow access to go on, or close this page.';
    else if (
      flow.type === 'datasource' &&
      flow.twoStep &&
      dataSource(store, flow.name!)?.lists_accounts_before_connection
    )
      flow.step = 'accounts';
    else {
      // One step: every account the sign-in found.
      complete(store, flow, flow.type === 'datasource' ? flow.candidates : []);
      flow.step = 'done';
    }
    return;
  }
  if (action === 'accounts' && flow.step === 'accounts') {
    const picked = new Set(form.account ?? []);
    const scope = field(form, 'scope') ?? (picked.size > 0 ? 'some' : 'all');
    const accounts = scope === 'some' ? flow.candidates.filter((c) => picked.has(c.remote)) : flow.candidates;
    // Ticked accounts with "Sync all accounts" chosen: which one was meant is the person's to say.
    if (scope !== 'some' && picked.size > 0) flow.error = ACCOUNTS_UNCLEAR;
    else if (accounts.length === 0) flow.error = 'Pick at least one account, or sync all of them.';
    else {
      complete(store, flow, accounts);
      flow.step = 'done';
    }
    return;
  }
  // A form of a step already left (the back button): the current step is shown again.
}

const GONE = 'This sign-in has ended (the sandbox restarted, or the page is too old). Open the link again.';

export function flowRoutes(app: FastifyInstance, store: Store): void {
  app.get<{ Params: { id: string } }>('/connect/flow/:id', async (request, reply) => {
    const flow = flows(store).get(request.params.id);
    if (!flow) return sendErrorPage(reply, 404, brand(store), 'This page can no longer be used', GONE);
    return renderFlow(store, reply, flow);
  });

  app.post<{ Params: { id: string; action: string } }>('/connect/flow/:id/:action', async (request, reply) => {
    const flow = flows(store).get(request.params.id);
    if (!flow) return sendErrorPage(reply, 404, brand(store), 'This page can no longer be used', GONE);
    const problem = flow.step === 'done' ? undefined : originProblem(store, flow);
    if (problem) return sendErrorPage(reply, 410, brand(store), 'This page can no longer be used', problem);
    act(store, flow, request.params.action, formFields(request.body));
    return reply.code(303).header('location', `/connect/flow/${flow.id}`).send();
  });
}

/** The iframe page (`GET /api/v3/iframe/?code=…`): the flow's first step, or why it cannot start. */
export function iframePage(store: Store, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const query = (request.query ?? {}) as Record<string, string | undefined>;
  // The query as the document declares it: a value it refuses is a 400 naming the parameter.
  const checked = iframePageQuery.safeParse(query);
  if (!checked.success) {
    const parameter = String(checked.error.issues[0]?.path[0] ?? 'code');
    const error = invalidQuery(parameter);
    if (!wantsHtml(request)) return sendError(request, reply, error);
    return sendErrorPage(reply, 400, brand(store), 'This page was opened with a bad address', error.message);
  }
  const code = query.code ?? '';
  const session = store.state.iframe_sessions[code];
  const problem = iframeCodeProblem(store, session);
  if (problem) {
    // A browser gets a page; a program gets the service's error body (the document declares JSON).
    if (!wantsHtml(request)) return sendError(request, reply, new SandboxError(404, 'not_found', problem));
    return sendErrorPage(reply, 404, brand(store), 'This page can no longer be used', problem);
  }
  const flow = iframeFlow(store, code, session!, query);
  return flow ? renderFlow(store, reply, flow) : sendBusy(store, request, reply);
}

/** The external authentication link page (`/connect/{token}`). */
export function linkPage(store: Store, request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) {
  const link = store.state.external_auth_links.find((l) => l.token === request.params.token);
  if (!link)
    return sendErrorPage(
      reply,
      404,
      brand(store),
      'Unknown link',
      'This link does not exist. Check that it was copied whole.',
    );
  const problem = linkProblem(store, link);
  if (problem) return sendErrorPage(reply, 410, brand(store), 'This link can no longer be used', problem);
  const flow = linkFlow(store, link, (request.query ?? {}) as Record<string, unknown>);
  return flow ? renderFlow(store, reply, flow) : sendBusy(store, request, reply);
}
