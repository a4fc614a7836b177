import { CONTROL_TOKEN_HEADER } from './admin.js';
import { checkFixture, readFixture } from './fixture/read.js';
import type { FixtureInput } from './fixture/schema.js';
import { startSandbox as start } from './server.js';
import type * as Declared from '../../types/sandbox.js';

/**
 * `import { startSandbox } from 'edp/sandbox'`: a sandbox for an operator's own tests, with the
 * few handles a test needs. Its types are types/sandbox.d.ts, shipped as dist/sandbox.d.mts; this
 * implementation is held to them by the typecheck (`satisfies` below).
 */
export const startPackagedSandbox = async function startSandbox(options = {}) {
  const { port = 0, fixture, clock } = options;
  const checked =
    fixture === undefined
      ? undefined
      : typeof fixture === 'string'
        ? await readFixture(fixture, 'fixture')
        : await checkFixture(structuredClone(fixture), 'fixture');
  const startTime = clock === undefined ? undefined : timeOf(clock);
  const sandbox = await start({
    port,
    clock: 'manual',
    startTime,
    fixture: checked,
    // A library writes nothing to the terminal of the suite that loads it: what it cannot answer is a warning.
    warn: (message) => process.emitWarning(message, 'EdpSandbox'),
  });
  const token = sandbox.store.opts.controlToken;
  const control = async (url: string, payload?: unknown) => {
    const answer = await sandbox.app.inject({
      method: 'POST',
      url,
      headers: { host: `127.0.0.1:${sandbox.port}`, ...(token ? { [CONTROL_TOKEN_HEADER]: token } : {}) },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    if (answer.statusCode >= 400) throw new Error(`${url} answered ${answer.statusCode}: ${answer.body}`);
  };
  return {
    url: sandbox.url,
    async advance(seconds: number) {
      if (!Number.isFinite(seconds) || seconds < 0)
        throw new RangeError(`advance(seconds): a number of seconds from 0, got ${String(seconds)}`);
      await control('/_sandbox/clock', { advance_seconds: seconds });
    },
    reset: () => control('/_sandbox/reset'),
    close: () => sandbox.close(),
  };
} satisfies typeof Declared.startSandbox;

/** A start time: a Date, milliseconds since the epoch or an ISO 8601 text. */
function timeOf(clock: Date | number | string): number {
  const ms = clock instanceof Date ? clock.getTime() : typeof clock === 'number' ? clock : Date.parse(clock);
  if (!Number.isFinite(ms)) throw new RangeError(`clock: a start time (a Date, ms or ISO 8601), got ${String(clock)}`);
  return ms;
}

// The fixture type of the declarations is the schema's input, key for key (assignability alone would
// let an optional key be misspelt).
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const fixtureTypeMatches: Same<Declared.SandboxFixture, FixtureInput> = true;
void fixtureTypeMatches;
