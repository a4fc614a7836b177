import type { FastifyInstance } from 'fastify';
import { linkView } from '../routes/sources/links.js';
import { deliveriesOf, endpointsOf } from '../routes/webhooks/model.js';
import type { Store } from '../store.js';
import { esc, field, formFields, page, sendPage } from './html.js';

/**
 * The inspector at `/_sandbox/`: what the sandbox saw and sent, on one page, and forms for the
 * clock and the fault knobs. Like every /_sandbox/ path it answers only on this machine. The
 * forms go through the JSON controls themselves (`app.inject`), so that both check the same.
 */

type Row = Record<string, unknown>;

function table(caption: string, columns: string[], rows: Row[], empty: string): string {
  if (rows.length === 0) return `<p>${esc(empty)}</p>`;
  const head = columns.map((c) => `<th scope="col">${esc(c)}</th>`).join('');
  const body = rows.map((r) => `<tr>${columns.map((c) => `<td>${cell(r[c])}</td>`).join('')}</tr>`).join('\n');
  return `<table><caption class="visually-hidden">${esc(caption)}</caption><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table>`;
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return `<code>${esc(JSON.stringify(v))}</code>`;
  return esc(v);
}

function section(id: string, title: string, body: string): string {
  return `<section aria-labelledby="${id}"><h2 id="${id}">${esc(title)}</h2>\n${body}\n</section>`;
}

function numberInput(name: string, label: string, value: number, step = 'any'): string {
  return `<label for="f-${name}">${esc(label)}</label>
<input type="number" id="f-${name}" name="${name}" value="${esc(value)}" min="0" step="${step}">`;
}

export function inspectorRoutes(app: FastifyInstance, root: FastifyInstance, store: Store): void {
  const control = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => {
    const res = await root.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.json() as unknown };
  };

  app.get<{ Querystring: Record<string, string | undefined> }>('/_sandbox/', async (request, reply) => {
    const journal = (await control('GET', '/_sandbox/requests?limit=200')).body as { results: Row[] };
    const o = store.opts;
    const note = request.query.done ? `<p class="done" role="status">${esc(request.query.done)}</p>` : '';
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
${numberInput('fail_rate', 'Share of API requests answered 503 (0 to 1)', o.failRate)}
${numberInput('reset_rate', 'Share of API answers whose connection is reset (0 to 1)', o.resetRate)}
${numberInput('latency_ms', 'Latency added to every API request (ms)', o.latencyMs, '1')}
${numberInput('retry_after', 'Retry-After of a 503 (seconds)', o.retryAfter, '1')}
${numberInput('token_ttl', 'Token lifetime after last use (seconds)', o.tokenTtl, '1')}
<button type="submit">Apply</button>
</form>`,
    );
    const requests = section(
      'requests',
      'Requests (newest first)',
      table(
        'Requests',
        ['seq', 'time', 'method', 'path', 'query', 'status', 'auth', 'workspace_id'],
        [...journal.results].reverse(),
        'No request yet.',
      ),
    );
    const deliveries = section(
      'deliveries',
      'Webhook deliveries (newest first)',
      `${table(
        'Webhook endpoints',
        ['id', 'workspace_id', 'url', 'status', 'event_types'],
        endpointsOf(store).map((e) => ({ ...e, event_types: e.event_types.join(', ') })),
        'No webhook endpoint.',
      )}
${table(
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
  [...deliveriesOf(store)].reverse().slice(0, 200) as unknown as Row[],
  'No delivery yet.',
)}`,
    );
    const events = section(
      'events',
      'Events (newest first)',
      table(
        'Events',
        ['id', 'time', 'type', 'workspace_id', 'shape'],
        [...store.state.events]
          .reverse()
          .slice(0, 100)
          .map((e) => ({ ...e, time: new Date(e.occurred_at).toISOString() })),
        'No event yet.',
      ),
    );
    const outbox = section(
      'outbox',
      'Outbox (e-mails the service would send)',
      table(
        'Outbox',
        ['sent_at', 'to', 'kind', 'subject', 'link_ids'],
        [...store.state.outbox].reverse() as unknown as Row[],
        'Empty.',
      ),
    );
    const links = section(
      'links',
      'External authentication links',
      table(
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
        [...store.state.external_auth_links].reverse().map((l) => linkView(store, l, request)),
        'No link.',
      ),
    );
    const codes = section(
      'iframe-codes',
      'Iframe codes',
      table(
        'Iframe codes',
        ['code', 'workspace_id', 'type', 'name', 'issued_at', 'used_at', 'connection_id'],
        Object.entries(store.state.iframe_sessions).map(([code, s]) => ({
          ...s,
          code: `${code.slice(0, 6)}…`,
          issued_at: s.issued_ms === undefined ? null : new Date(s.issued_ms).toISOString(),
        })),
        'No iframe code.',
      ),
    );
    const nav = `<nav aria-label="Sections"><p>${[
      ['clock', 'Clock'],
      ['faults', 'Faults'],
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
        body: `${note}${nav}<p><a href="/_sandbox/">Refresh</a></p>\n${clock}\n${faults}\n${requests}\n${deliveries}\n${events}\n${outbox}\n${links}\n${codes}`,
      }),
    );
  });

  const back = (text: string) => `/_sandbox/?done=${encodeURIComponent(text)}`;

  app.post('/_sandbox/inspector/clock', async (request, reply) => {
    const secs = Number(field(formFields(request.body), 'advance_seconds') ?? '0');
    const res = await control('POST', '/_sandbox/clock', { advance_seconds: secs });
    const text = res.status === 200 ? `Clock advanced by ${secs} s.` : `Refused: ${JSON.stringify(res.body)}`;
    return reply.code(303).header('location', back(text)).send();
  });

  app.post('/_sandbox/inspector/faults', async (request, reply) => {
    const form = formFields(request.body);
    const body: Record<string, number> = {};
    for (const key of ['fail_rate', 'reset_rate', 'latency_ms', 'retry_after', 'token_ttl']) {
      const v = field(form, key);
      if (v !== undefined && v.trim() !== '' && Number.isFinite(Number(v))) body[key] = Number(v);
    }
    const res = await control('PATCH', '/_sandbox/faults', body);
    const text = res.status === 200 ? 'Fault knobs applied.' : `Refused: ${JSON.stringify(res.body)}`;
    return reply.code(303).header('location', back(text)).send();
  });

  // An operator's page that embeds a connection page and shows what it posts to its parent.
  app.get<{ Querystring: Record<string, string | undefined> }>('/_sandbox/embed-example', async (request, reply) => {
    const url = request.query.url ?? '';
    const ok = /^https?:\/\//i.test(url);
    const frame = ok
      ? `<iframe src="${esc(url)}" title="Connection page" style="width:100%;height:36rem;border:1px solid #6b6b6b"></iframe>`
      : '<p class="error" role="alert">Give the page to embed as <code>?url=</code> (an iframe URL or a link).</p>';
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
