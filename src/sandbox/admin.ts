import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';
import type { Store } from './state.js';

/**
 * Sandbox-only controls under /_sandbox/ (no authentication; the sandbox listens on loopback):
 * move the clock, flip agency flags, change fault knobs, open a cookie session, read events.
 */
export function adminRoutes(app: FastifyInstance, store: Store): void {
  app.get('/_sandbox/health', async () => ({ ok: true }));

  app.get('/_sandbox/state', async () => store.state);

  app.post('/_sandbox/clock', async (request) => {
    const body = (request.body ?? {}) as { advance_seconds?: unknown };
    const secs = Number(body.advance_seconds);
    if (!Number.isFinite(secs) || secs < 0) throw badRequest('advance_seconds must be a non-negative number');
    store.clock.advance(secs * 1000);
    return { now: store.clock.iso() };
  });

  app.patch('/_sandbox/agency', async (request) => {
    const flags = store.state.agency.flags;
    const body = (request.body ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(flags) as Array<keyof typeof flags>) {
      if (typeof body[key] === 'boolean') flags[key] = body[key] as boolean;
    }
    store.changed();
    return store.state.agency;
  });

  app.patch('/_sandbox/faults', async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const o = store.opts;
    if (typeof body.fail_rate === 'number') o.failRate = body.fail_rate;
    if (typeof body.reset_rate === 'number') o.resetRate = body.reset_rate;
    if (typeof body.latency_ms === 'number') o.latencyMs = body.latency_ms;
    if (typeof body.retry_after === 'number') o.retryAfter = body.retry_after;
    if (typeof body.token_ttl === 'number') o.tokenTtl = body.token_ttl;
    if (typeof body.build_seconds === 'number') o.buildSeconds = body.build_seconds;
    return { fail_rate: o.failRate, reset_rate: o.resetRate, latency_ms: o.latencyMs, retry_after: o.retryAfter, token_ttl: o.tokenTtl, build_seconds: o.buildSeconds };
  });

  app.post('/_sandbox/sessions', async (request) => {
    const body = (request.body ?? {}) as { username?: unknown };
    const user = store.state.users.find((u) => u.email === body.username && u.is_active);
    if (!user) throw badRequest('unknown or inactive user');
    const id = store.secret(16);
    store.state.sessions[id] = { user_id: user.id };
    return { session_id: id };
  });

  app.get('/_sandbox/events', async () => store.state.events);
}
