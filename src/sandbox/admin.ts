import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { badRequest, forbidden } from './errors.js';
import { z } from 'zod';
import { parseBody, type ControlBody } from './http.js';
import type { Store } from './store.js';

/** The header that carries the control token. */
export const CONTROL_TOKEN_HEADER = 'x-sandbox-token';

/**
 * A loopback `Host` header, exactly: `localhost`, `127.0.0.1` or `[::1]` (any case), then
 * nothing or `:PORT`. Anything else (`127.0.0.1:1@evil`, `[::1]evil`, `localhost.`) is not one.
 */
const LOOPBACK_HOST = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i;

/** Whether a listen address only takes connections from this machine. */
/** The fault knobs of PATCH /_sandbox/faults: shares of requests, and amounts. */
const share = z.number().min(0).max(1).optional();
const amount = z.number().min(0).finite().optional();
const FAULTS = z.object({
  fail_rate: share,
  reset_rate: share,
  latency_ms: amount,
  retry_after: amount,
  token_ttl: amount,
  build_seconds: amount,
});

export function isLoopbackAddress(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** The origin a browser names when it sends from a page at this loopback `Host`, or undefined if it is not one. */
function loopbackOrigin(host: string | undefined): string | undefined {
  const m = host === undefined ? null : LOOPBACK_HOST.exec(host);
  if (!m || (m[1] !== undefined && Number(m[1]) > 65535)) return undefined;
  // The URL parser lower-cases the name and drops the default port, as browsers do in Origin.
  return new URL(`http://${host}`).origin;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may use the controls. They read and change everything, passwords and tokens included,
 * so a web page must not reach them: a page on another site that rebinds its DNS name to
 * 127.0.0.1 sends its own name as `Host`, hence only loopback names are served; a page of any
 * other origin, on this machine too (another port of localhost), names itself in `Origin`,
 * hence a request naming an origin answers only if that origin is the address it was sent to
 * (the sandbox's own pages: the inspector's forms). A change sent from a page of another
 * origin that names none is still marked by the browser (`Sec-Fetch-Site`). Listening on
 * another address, anyone on the network can connect: then the control token is required
 * (and suffices, whatever the `Host`: no page can send it without the sandbox's consent).
 */
function controlRefusal(store: Store, request: FastifyRequest): string | undefined {
  const token = store.opts.controlToken;
  const sent = request.headers[CONTROL_TOKEN_HEADER];
  if (token !== undefined) {
    if (typeof sent === 'string' && sameSecret(sent, token)) return undefined;
    return 'Sandbox controls need the X-Sandbox-Token header with the control token.';
  }
  const own = loopbackOrigin(request.headers.host);
  if (!own) return 'Sandbox controls answer only requests addressed to localhost, 127.0.0.1 or [::1].';
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  const changes = request.method !== 'GET' && request.method !== 'HEAD';
  if (
    (origin !== undefined && origin !== own) ||
    (changes && site !== undefined && site !== 'same-origin' && site !== 'none')
  ) {
    return `Sandbox controls answer only the sandbox's own pages (${own}) and programs, not web pages of other origins.`;
  }
  return undefined;
}

/**
 * What the controls' answers carry: no page of another origin may frame them (the inspector's
 * forms clicked through a page laid over them), in the words of current browsers and older ones.
 */
const CONTROL_HEADERS = { 'content-security-policy': "frame-ancestors 'self'", 'x-frame-options': 'SAMEORIGIN' };

/**
 * The refusal of a request that is not under /api/ when it reaches a control and may not
 * (see `controlRefusal`); undefined otherwise. Run first thing on every such request. The route
 * matched counts, not the raw URL: the router decodes `/%5Fsandbox/state` to a control.
 */
export function refuseControl(store: Store, request: FastifyRequest, reply: FastifyReply): Error | undefined {
  const path = request.routeOptions.url ?? request.url;
  if (!path.startsWith('/_sandbox/') && !request.url.startsWith('/_sandbox/')) return undefined;
  reply.headers(CONTROL_HEADERS);
  const refusal = controlRefusal(store, request);
  return refusal ? forbidden(refusal) : undefined;
}

/**
 * Sandbox-only controls under /_sandbox/, for tests on this machine: move the clock, flip
 * agency flags, change fault knobs, open a cookie session, read events and the state.
 * Every /_sandbox/ path, including those the areas add, is guarded by `refuseControl`.
 */
export function adminRoutes(app: FastifyInstance, store: Store): void {
  if (store.opts.controlToken === undefined && !isLoopbackAddress(store.opts.host)) {
    store.opts.controlToken = randomBytes(24).toString('base64url');
  }
  // Expired tokens leave the state (and the state file) with the next change a minute or more
  // on (Store.changed); this catches an idle sandbox.
  const pruning = setInterval(() => {
    if (store.pruneTokens() > 0) store.changed();
  }, 60_000);
  pruning.unref();
  app.addHook('onClose', async () => clearInterval(pruning));

  app.get('/_sandbox/health', async () => ({ ok: true }));

  app.get('/_sandbox/state', async () => store.state);

  const clockView = () => ({ now: store.clock.iso(), mode: store.clock.mode, pending_timers: store.clock.pending });
  app.get('/_sandbox/clock', async () => clockView());
  // Moves the clock (and finishes the work that becomes due, in order); `settle` moves it to
  // each pending timer until none is left; `mode` switches between wall-clock time and time
  // that moves only here.
  app.post<{ Body: { advance_seconds?: unknown; settle?: unknown; mode?: unknown } | undefined }>(
    '/_sandbox/clock',
    async (request) => {
      const body = request.body ?? {};
      if (body.mode !== undefined && body.mode !== 'real' && body.mode !== 'manual')
        throw badRequest("mode must be 'real' or 'manual'");
      if (body.settle !== undefined && typeof body.settle !== 'boolean') throw badRequest('settle must be a boolean');
      const secs =
        body.advance_seconds === undefined && (body.mode !== undefined || body.settle !== undefined)
          ? 0
          : Number(body.advance_seconds);
      if (!Number.isFinite(secs) || secs < 0) throw badRequest('advance_seconds must be a non-negative number');
      if (body.mode !== undefined) store.clock.setMode(body.mode);
      store.clock.advance(secs * 1000);
      if (body.settle === true) store.clock.settle();
      return clockView();
    },
  );

  app.patch<{ Body: ControlBody }>('/_sandbox/agency', async (request) => {
    const flags = store.state.agency.flags;
    const body = request.body ?? {};
    for (const key of Object.keys(flags) as Array<keyof typeof flags>) {
      if (typeof body[key] === 'boolean') flags[key] = body[key] as boolean;
    }
    store.changed();
    return store.state.agency;
  });

  app.patch<{ Body: ControlBody }>('/_sandbox/faults', async (request) => {
    // Checked whole before any knob moves: a share is 0 to 1, the others 0 or more.
    const body = parseBody(FAULTS, request.body);
    const o = store.opts;
    if (typeof body.fail_rate === 'number') o.failRate = body.fail_rate;
    if (typeof body.reset_rate === 'number') o.resetRate = body.reset_rate;
    if (typeof body.latency_ms === 'number') o.latencyMs = body.latency_ms;
    if (typeof body.retry_after === 'number') o.retryAfter = body.retry_after;
    if (typeof body.token_ttl === 'number') o.tokenTtl = body.token_ttl;
    if (typeof body.build_seconds === 'number') o.buildSeconds = body.build_seconds;
    return {
      fail_rate: o.failRate,
      reset_rate: o.resetRate,
      latency_ms: o.latencyMs,
      retry_after: o.retryAfter,
      token_ttl: o.tokenTtl,
      build_seconds: o.buildSeconds,
    };
  });

  app.post<{ Body: { username?: unknown } | undefined }>('/_sandbox/sessions', async (request) => {
    const body = request.body ?? {};
    const user = store.state.users.find((u) => u.email === body.username && u.is_active);
    if (!user) throw badRequest('unknown or inactive user');
    const id = store.secret(16);
    store.state.sessions[id] = { user_id: user.id };
    store.changed();
    return { session_id: id };
  });

  app.get('/_sandbox/events', async () => store.state.events);
}
