import type { FastifyInstance } from 'fastify';
import { parseJson, stringifyJson } from '../util/json.js';
import type { ClockMode } from './clock.js';
import { SandboxError, badRequest } from './errors.js';
import type { RequestJournal } from './journal.js';
import type { Store } from './store.js';
import type { State } from './types.js';

/** A snapshot's name: letters, digits, '-' and '_', 1 to 64 of them. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The whole state as text (a deep copy that cannot be changed), and the clock and the seeded
 * generators with it: returned to, the sandbox makes the same data (and after a reset the same
 * faults) again.
 */
interface Saved {
  text: string;
  time: number;
  mode: ClockMode;
  random: { data: number; faults: number };
}

export interface SnapshotView {
  name: string;
  /** when it was taken, by the sandbox's clock */
  taken_at: string;
  /** bytes of the state's JSON */
  size: number;
}

/** The knobs of PATCH /_sandbox/faults and PATCH /_sandbox/webhooks, as the options hold them. */
const KNOBS = [
  'failRate',
  'resetRate',
  'latencyMs',
  'retryAfter',
  'tokenTtl',
  'buildSeconds',
  'webhookDelay',
  'webhookRetryDelays',
  'webhookLostAnswers',
  'webhookTimestampDigits',
] as const;

function save(store: Store): Saved {
  return {
    text: stringifyJson(store.state),
    time: store.clock.now(),
    mode: store.clock.mode,
    random: { data: store.random.position, faults: store.faultRandom.position },
  };
}

/** Returns to what was saved; the generator of faults too when `faults` (a reset, not a restore). */
function restore(store: Store, saved: Saved, faults: boolean): void {
  store.random.position = saved.random.data;
  if (faults) store.faultRandom.position = saved.random.faults;
  store.replaceState(parseJson(saved.text) as State, saved.time, saved.mode);
}

/**
 * The state controls for tests: `POST /_sandbox/reset` returns to the start (the demo data of
 * --seed, the fixture of --fixture or --from, or what --state loaded; the clock's time and mode,
 * the fault knobs as started, the seeded generators of data and faults where they stood; the
 * request journal emptied); `PUT /_sandbox/snapshots/NAME` keeps
 * the whole state and the clock's time, `POST /_sandbox/snapshots/NAME/restore` returns to it,
 * `GET /_sandbox/snapshots` lists them. Snapshots live in memory only (a restart, with --state
 * too, has none); a reset or restore is saved to the --state file as any change is. Registered
 * once the start state is made.
 */
export function snapshotRoutes(app: FastifyInstance, store: Store, journal: RequestJournal): void {
  const start = save(store);
  const knobs = structuredClone(Object.fromEntries(KNOBS.map((k) => [k, store.opts[k]]))) as Pick<
    Store['opts'],
    (typeof KNOBS)[number]
  >;
  const snapshots = new Map<string, Saved & { view: SnapshotView }>();

  const nameOf = (raw: string): string => {
    if (!SNAPSHOT_NAME.test(raw))
      throw badRequest(`snapshot name must be 1 to 64 letters, digits, '-' or '_' (got ${JSON.stringify(raw)})`);
    return raw;
  };
  const clockView = () => ({ now: store.clock.iso(), mode: store.clock.mode });

  app.post('/_sandbox/reset', async () => {
    restore(store, start, true);
    Object.assign(store.opts, structuredClone(knobs));
    journal.clear();
    return { reset: true, clock: clockView() };
  });

  app.get('/_sandbox/snapshots', async () => {
    const results = [...snapshots.values()].map((s) => s.view);
    return { count: results.length, results };
  });

  app.put<{ Params: { name: string } }>('/_sandbox/snapshots/:name', async (request, reply) => {
    const name = nameOf(request.params.name);
    const saved = save(store);
    const view: SnapshotView = {
      name,
      taken_at: new Date(saved.time).toISOString(),
      size: Buffer.byteLength(saved.text),
    };
    const existed = snapshots.delete(name);
    snapshots.set(name, { ...saved, view });
    return reply.code(existed ? 200 : 201).send(view);
  });

  app.post<{ Params: { name: string } }>('/_sandbox/snapshots/:name/restore', async (request) => {
    const name = nameOf(request.params.name);
    const saved = snapshots.get(name);
    if (!saved) {
      const known = [...snapshots.keys()];
      throw new SandboxError(
        404,
        'not_found',
        `No snapshot "${name}"; ${known.length > 0 ? `known: ${known.join(', ')}` : 'none taken yet (PUT /_sandbox/snapshots/NAME)'}.`,
        {},
        { snapshots: known },
      );
    }
    restore(store, saved, false);
    return { restored: saved.view, clock: clockView() };
  });
}
