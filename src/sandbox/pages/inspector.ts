import type { FastifyInstance, FastifyRequest } from 'fastify';
import { operationPath } from '../../contract/operations.js';
import { sandboxBaseUrl } from '../http.js';
import { LINK_PAGE_PATH, linkView } from '../routes/sources/links.js';
import { deliveriesOf, endpointsOf } from '../routes/webhooks/model.js';
import type { Store } from '../store.js';
import { SNAPSHOT_NAME, type SnapshotView } from '../snapshots.js';
import { esc, field, formFields, page, sendErrorPage, sendPage } from './html.js';

/**
 * The inspector at `/_sandbox/`: what the sandbox saw and sent, on one page, and forms for the
 * clock, the fault knobs, a reset and snapshots. Like every /_sandbox/ path it answers only on this machine, to
 * programs and its own pages. The forms go through the JSON controls themselves
 * (`app.inject`), so that both check the same.
 */

type Row = Record<string, unknown>;

/**
 * How many rows each table shows, newest first: a sandbox that ran for days holds tens of
 * thousands of codes or events, and the page stays a page (the controls list them all).
 */
export const INSPECTOR_ROWS = 100;

/** The newest `INSPECTOR_ROWS` of a list kept oldest first, newest first, and how many are left out. */
function newest<T>(items: readonly T[]): { rows: T[]; more: number } {
  return { rows: items.slice(-INSPECTOR_ROWS).reverse(), more: Math.max(0, items.length - INSPECTOR_ROWS) };
}

/** The newest rows of a list kept oldest first, as `table` shows them; `view` makes an item a row. */
function newestTable<T>(
  caption: string,
  columns: string[],
  items: readonly T[],
  view: (item: T) => Row,
  empty: string,
  all: string,
): string {
  const { rows, more } = newest(items);
  return table(caption, columns, rows.map(view), empty, more, all);
}

function table(caption: string, columns: string[], rows: Row[], empty: string, more = 0, all = ''): string {
  if (rows.length === 0) return `<p>${esc(empty)}</p>`;
  const head = columns.map((c) => `<th scope="col">${esc(c)}</th>`).join('');
  const body = rows.map((r) => `<tr>${columns.map((c) => `<td>${cell(r[c])}</td>`).join('')}</tr>`).join('\n');
  const rest = more > 0 ? `\n<p>${more} older not shown (all of them: <code>${esc(all)}</code>).</p>` : '';
  // Long values wrap in their cells; a table still too wide scrolls in its own box, not the page.
  return `<div class="table-scroll"><table><caption class="visually-hidden">${esc(caption)}</caption><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></div>${rest}`;
}

/**
 * The banners the forms lead back to: `?done=` names one of these, never the text itself, so
 * that no address can make the inspector say what the sandbox did not.
 */
const NOTICES: Record<string, (query: Record<string, string | undefined>) => string | undefined> = {
  clock: (q) =>
    /^\d{1,9}(?:\.\d{1,3})?$/.test(q.seconds ?? '') ? `Clock advanced by ${Number(q.seconds)} s.` : undefined,
  'clock-refused': () => 'The clock was not moved: give the seconds to advance by as a number, 0 or more.',
  faults: () => 'Fault knobs applied.',
  'faults-refused': () => 'The fault knobs were not changed.',
  reset: () => 'The sandbox is back to its start state.',
  'reset-refused': () => 'The sandbox was not reset.',
  snapshot: (q) => (SNAPSHOT_NAME.test(q.name ?? '') ? `Snapshot ${q.name} taken.` : undefined),
  'snapshot-refused': () => "No snapshot was taken: name it with 1 to 64 letters, digits, '-' or '_'.",
  restore: (q) => (SNAPSHOT_NAME.test(q.name ?? '') ? `Snapshot ${q.name} restored.` : undefined),
  'restore-refused': () => 'Nothing was restored: there is no snapshot of that name.',
};

function notice(query: Record<string, string | undefined>): string {
  const make =
    query.done === undefined ? undefined : Object.hasOwn(NOTICES, query.done) ? NOTICES[query.done] : undefined;
  const text = make?.(query);
  return text ? `<p class="done" role="status">${esc(text)}</p>` : '';
}

/**
 * Whether `url` is a page of this sandbox an operator embeds: the iframe page or a link's page,
 * at the address the sandbox hands them out with.
 */
function ownConnectionPage(request: FastifyRequest, url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.origin !== new URL(sandboxBaseUrl(request)).origin || u.username || u.password) return false;
  const link = u.pathname.startsWith(LINK_PAGE_PATH) && /^[\w-]+$/.test(u.pathname.slice(LINK_PAGE_PATH.length));
  return u.pathname === operationPath('iframe.page') || link;
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return `<code>${esc(JSON.stringify(v))}</code>`;
  return esc(v);
}

function section(id: string, title: string, body: string): string {
  return `<section aria-labelledby="${id}"><h2 id="${id}">${esc(title)}</h2>\n${body}\n</section>`;
}

function numberInput(name: string, label: string, value: number, step = 'any', max?: number): string {
  return `<label for="f-${name}">${esc(label)}</label>
<input type="number" id="f-${name}" name="${name}" value="${esc(value)}" min="0"${max === undefined ? '' : ` max="${max}"`} step="${step}">`;
}

export function inspectorRoutes(app: FastifyInstance, root: FastifyInstance, store: Store): void {
  const control = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) => {
    const res = await root.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };

  app.get<{ Querystring: Record<string, string | undefined> }>('/_sandbox/', async (request, reply) => {
    const journal = (await control('GET', '/_sandbox/requests')).body.results as Row[];
    const o = store.opts;
    const note = notice(request.query);
    const clock = section(
      'clock',
      'Clock',
      `<p>Sandbox time: <strong>${esc(store.clock.iso())}</strong> (links expire 14 days after they are made).</p>
<form method="post" action="/_sandbox/inspector/clock">
${numberInput('advance_seconds', 'Advance the clock by (seconds)', 0)}
<button type="submit">Advance</button>
</form>`,
    );
    const faults = section(
      'faults',
      'Faults',
      `<form method="post" action="/_sandbox/inspector/faults">
${numberInput('fail_rate', 'Share of API requests answered 503 (0 to 1)', o.failRate, 'any', 1)}
${numberInput('reset_rate', 'Share of API answers whose connection is reset (0 to 1)', o.resetRate, 'any', 1)}
${numberInput('latency_ms', 'Latency added to every API request (ms)', o.latencyMs, '1')}
${numberInput('retry_after', 'Retry-After of a 503 (seconds)', o.retryAfter, '1')}
${numberInput('token_ttl', 'Token lifetime after last use (seconds)', o.tokenTtl, '1')}
<button type="submit">Apply</button>
</form>`,
    );
    const taken = (await control('GET', '/_sandbox/snapshots')).body.results as SnapshotView[];
    const restoreForm =
      taken.length === 0
        ? ''
        : `<form method="post" action="/_sandbox/inspector/restore">
<label for="f-restore-name">Snapshot to restore</label>
<select id="f-restore-name" name="name">
${taken.map((t) => `<option value="${esc(t.name)}">${esc(t.name)}</option>`).join('\n')}
</select>
<button type="submit">Restore</button>
</form>`;
    const state = section(
      'state',
      'State',
      `<form method="post" action="/_sandbox/inspector/reset">
<p>Reset returns the state, the clock and the fault knobs to what the sandbox started with, and empties the request journal.</p>
<button type="submit">Reset</button>
</form>
<form method="post" action="/_sandbox/inspector/snapshot">
<label for="f-snapshot-name">Snapshot name (letters, digits, - and _)</label>
<input type="text" id="f-snapshot-name" name="name" required maxlength="64" pattern="[A-Za-z0-9_\\-]{1,64}">
<button type="submit">Take snapshot</button>
</form>
${restoreForm}
${table('Snapshots', ['name', 'taken_at', 'size'], taken as unknown as Row[], 'No snapshot taken.')}`,
    );
    const requests = section(
      'requests',
      'Requests (newest first)',
      newestTable(
        'Requests',
        ['seq', 'time', 'method', 'path', 'query', 'status', 'auth', 'workspace_id'],
        journal,
        (r) => r,
        'No request yet.',
        `GET /_sandbox/requests`,
      ),
    );
    const deliveries = section(
      'deliveries',
      'Webhook deliveries (newest first)',
      `${newestTable(
        'Webhook endpoints',
        ['id', 'workspace_id', 'url', 'status', 'event_types'],
        endpointsOf(store),
        (e) => ({ ...e, event_types: e.event_types.join(', ') }),
        'No webhook endpoint.',
        'GET /_sandbox/state (webhook_endpoints)',
      )}
${newestTable(
  'Webhook deliveries',
  [
    'id',
    'attempted_at',
    'endpoint_id',
    'event_type',
    'event_id',
    'attempt',
    'status_code',
    'outcome',
    'error',
    'will_retry',
    'retry_in_s',
    'signature',
    'idempotency_key',
  ],
  deliveriesOf(store),
  (d) => d as unknown as Row,
  'No delivery yet.',
  'GET /_sandbox/webhook-deliveries',
)}`,
    );
    const events = section(
      'events',
      'Events (newest first)',
      newestTable(
        'Events',
        ['id', 'time', 'type', 'workspace_id', 'shape'],
        store.state.events,
        (e) => ({ ...e, time: new Date(e.occurred_at).toISOString() }),
        'No event yet.',
        'GET /_sandbox/events',
      ),
    );
    const outbox = section(
      'outbox',
      'Outbox (e-mails the service would send, newest first)',
      newestTable(
        'Outbox',
        ['sent_at', 'to', 'kind', 'subject', 'link_ids'],
        store.state.outbox,
        (m) => m as unknown as Row,
        'Empty.',
        'GET /_sandbox/state (outbox)',
      ),
    );
    const links = section(
      'links',
      'External authentication links (newest first)',
      newestTable(
        'External authentication links',
        [
          'id',
          'datasource_name',
          'email',
          'status',
          'requested_by',
          'created_at',
          'expires_at',
          'connection_id',
          'url',
        ],
        store.state.external_auth_links,
        (l) => linkView(store, l, request),
        'No link.',
        'GET /_sandbox/state (external_auth_links)',
      ),
    );
    // Codes are kept in the order they were issued.
    const codes = section(
      'iframe-codes',
      'Iframe codes (newest first)',
      newestTable(
        'Iframe codes',
        ['code', 'workspace_id', 'type', 'name', 'issued_at', 'used_at', 'connection_id'],
        Object.keys(store.state.iframe_sessions),
        (code) => {
          const s = store.state.iframe_sessions[code]!;
          return {
            ...s,
            code: `${code.slice(0, 6)}…`,
            issued_at: s.issued_ms === undefined ? null : new Date(s.issued_ms).toISOString(),
          };
        },
        'No iframe code.',
        'GET /_sandbox/state (iframe_sessions)',
      ),
    );
    const nav = `<nav aria-label="Sections"><p>${[
      ['clock', 'Clock'],
      ['faults', 'Faults'],
      ['state', 'State'],
      ['requests', 'Requests'],
      ['deliveries', 'Webhook deliveries'],
      ['events', 'Events'],
      ['outbox', 'Outbox'],
      ['links', 'Links'],
      ['iframe-codes', 'Iframe codes'],
    ]
      .map(([id, t]) => `<a href="#${id}">${t}</a>`)
      .join(' · ')}</p></nav>`;
    return sendPage(
      reply,
      200,
      page({
        title: 'Sandbox inspector',
        brand: `${store.state.agency.title} sandbox`,
        wide: true,
        body: `${note}${nav}<p><a href="/_sandbox/">Refresh</a></p>\n${clock}\n${faults}\n${state}\n${requests}\n${deliveries}\n${events}\n${outbox}\n${links}\n${codes}`,
      }),
    );
  });

  const back = (done: string, extra = '') => `/_sandbox/?done=${done}${extra}`;

  app.post('/_sandbox/inspector/clock', async (request, reply) => {
    const secs = Number(field(formFields(request.body), 'advance_seconds') ?? '0');
    const res = await control('POST', '/_sandbox/clock', { advance_seconds: secs });
    const to = res.status === 200 ? back('clock', `&seconds=${encodeURIComponent(secs)}`) : back('clock-refused');
    return reply.code(303).header('location', to).send();
  });

  app.post('/_sandbox/inspector/faults', async (request, reply) => {
    const form = formFields(request.body);
    const body: Record<string, number> = {};
    for (const key of ['fail_rate', 'reset_rate', 'latency_ms', 'retry_after', 'token_ttl']) {
      const v = field(form, key);
      if (v !== undefined && v.trim() !== '' && Number.isFinite(Number(v))) body[key] = Number(v);
    }
    const res = await control('PATCH', '/_sandbox/faults', body);
    return reply
      .code(303)
      .header('location', back(res.status === 200 ? 'faults' : 'faults-refused'))
      .send();
  });

  app.post('/_sandbox/inspector/reset', async (_request, reply) => {
    const res = await control('POST', '/_sandbox/reset');
    return reply
      .code(303)
      .header('location', back(res.status === 200 ? 'reset' : 'reset-refused'))
      .send();
  });

  app.post('/_sandbox/inspector/snapshot', async (request, reply) => {
    const name = field(formFields(request.body), 'name') ?? '';
    const ok = SNAPSHOT_NAME.test(name) && (await control('PUT', `/_sandbox/snapshots/${name}`)).status < 300;
    const to = ok ? back('snapshot', `&name=${name}`) : back('snapshot-refused');
    return reply.code(303).header('location', to).send();
  });

  app.post('/_sandbox/inspector/restore', async (request, reply) => {
    const name = field(formFields(request.body), 'name') ?? '';
    const ok =
      SNAPSHOT_NAME.test(name) && (await control('POST', `/_sandbox/snapshots/${name}/restore`)).status === 200;
    const to = ok ? back('restore', `&name=${name}`) : back('restore-refused');
    return reply.code(303).header('location', to).send();
  });

  // An operator's page that embeds a connection page and shows what it posts to its parent.
  app.get<{ Querystring: Record<string, string | undefined> }>('/_sandbox/embed-example', async (request, reply) => {
    const url = request.query.url;
    const example = `${sandboxBaseUrl(request)}${operationPath('iframe.page')}?code=…`;
    // Only the sandbox's own pages: an example that framed any address would be a page of the
    // sandbox's origin showing whatever a link to it names.
    if (url !== undefined && !ownConnectionPage(request, url))
      return sendErrorPage(
        reply,
        400,
        'Example operator',
        'This page frames only the sandbox’s own pages',
        `The url query parameter must be an iframe URL or a link this sandbox handed out (${example}, or a link’s address), as edp iframe-url and edp links create print them.`,
      );
    const frame = url
      ? `<iframe src="${esc(url)}" title="Connection page" style="width:100%;height:36rem;border:1px solid #6b6b6b"></iframe>`
      : `<p class="error" role="alert">Give the page to embed as <code>?url=</code>: an iframe URL or a link this sandbox handed out (${esc(example)}).</p>`;
    return sendPage(
      reply,
      200,
      page({
        title: "An operator's page embedding the connection page",
        brand: 'Example operator',
        body: `<p>The frame below comes from the sandbox; this page stands for the operator's product.</p>
${frame}
<h2>Messages from the frame</h2>
<ol id="messages" aria-live="polite"></ol>`,
        script: `window.addEventListener('message', function (e) {
  var li = document.createElement('li');
  li.textContent = e.origin + ': ' + JSON.stringify(e.data);
  document.getElementById('messages').appendChild(li);
});`,
      }),
    );
  });
}
