import type { ClockMode } from './clock.js';
import type { Fixture } from './fixture/schema.js';

/** How a sandbox is started (the `edp sandbox` flags) and what it does on its own. */
export interface SandboxOptions {
  host: string;
  port: number;
  seed: number;
  username: string;
  password: string;
  latencyMs: number;
  failRate: number;
  retryAfter: number;
  resetRate: number;
  buildSeconds: number;
  /**
   * How the sandbox's time passes: `real` follows the wall clock (builds take --build-seconds);
   * `manual` stands still until POST /_sandbox/clock moves it, so that tests decide when work
   * finishes.
   */
  clock: ClockMode;
  tokenTtl: number;
  webhookDelay: number;
  scale: number;
  stateFile: string | undefined;
  /**
   * What a fresh state holds instead of the demo data (--fixture, --from): checked already
   * (fixture/read.ts). A state loaded from --state is used as it is.
   */
  fixture?: Fixture | undefined;
  /** The clock's time at start (ms since the epoch); the wall clock's when unset. */
  startTime?: number | undefined;
  /**
   * Required in the X-Sandbox-Token header by the /_sandbox/ controls when set; generated at
   * start when the sandbox listens on an address other than loopback.
   */
  controlToken: string | undefined;
  /** Where problems that cannot be answered to a request go (a failed save); stderr by default. */
  warn: (message: string) => void;
  /**
   * Told of every answer to an /api/ request as it leaves: the operation's route (`/api/v3/loads/:id`,
   * undefined for a path no route serves), the status and the body. The test suite checks each
   * answer against the OpenAPI document with it.
   */
  onAnswer?: ((answer: Answer) => void) | undefined;
}

export interface Answer {
  method: string;
  route: string | undefined;
  status: number;
  body: string;
}

export const defaultSandboxOptions: SandboxOptions = {
  host: '127.0.0.1',
  port: 4010,
  seed: 1,
  username: 'agency@sandbox.local',
  password: 'sandbox',
  latencyMs: 0,
  failRate: 0,
  retryAfter: 30,
  resetRate: 0,
  buildSeconds: 2,
  clock: 'real',
  tokenTtl: 1800,
  webhookDelay: 1,
  scale: 1,
  stateFile: undefined,
  controlToken: undefined,
  warn: (message) => process.stderr.write(`${message}\n`),
};
