import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, onTestFinished, TestRunner } from 'vitest';
import { Service } from '../src/api/service.js';
import { main } from '../src/cli.js';
import type { Parsed } from '../src/commands/shared/app.js';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { setSandboxAddress } from '../src/sandbox/http.js';
import { CONTROL_TOKEN_HEADER } from '../src/sandbox/admin.js';
import type { Answer, SandboxOptions } from '../src/sandbox/options.js';
import { parseJson } from '../src/util/json.js';
import { answerChecker } from './fixtures/openapi-check.js';
import { fileTempDir, tempDir } from './temp-dirs.js';
import type { ErrorDocument } from '../src/output/error-document.js';

export const USERNAME = 'agency@sandbox.local';
export const PASSWORD = 'sandbox';

/**
 * A sandbox on a free port; close it in afterAll. Every answer it gives is checked against
 * its OpenAPI document when it closes (fixtures/openapi-check.ts): a violation fails the close.
 * Once closed, its address answers no more; the sandbox behind it may serve a later test of the
 * worker, reset to its start and on another port (`Served`, `retire`): it is as new to that test.
 * Its clock is manual: time stands still until the test moves it (`advanceClock`), so a build,
 * load or extract run that takes `buildSeconds` is in progress until then and done right after,
 * whatever the machine's speed. With `buildSeconds: 0` work is done by the next request.
 */
export async function sandbox(opts: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const answers = answerChecker();
  const told = opts.onAnswer;
  const key = spareKey(opts);
  const served = (key === undefined ? undefined : spares.get(key)?.pop()) ?? (await startServed(opts));
  const port = await listen(served);
  const { host } = served.sandbox.store.opts;
  let closed: Promise<void> | undefined;
  const sb: Sandbox = {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    store: served.sandbox.store,
    app: served.sandbox.app,
    // Once: a sandbox kept twice would serve two tests.
    close: () =>
      (closed ??= (async () => {
        const violations = await answers.check(sb).finally(() => retire(served, key));
        if (violations.length > 0)
          throw new Error(`the sandbox answered outside its OpenAPI document:\n  ${violations.join('\n  ')}`);
      })()),
  };
  served.answered = (answer) => {
    answers.record(answer);
    told?.(answer);
    clockDrivers.get(sb)?.(answer);
  };
  return sb;
}

/**
 * A sandbox started for the tests, and whoever it now serves. Starting one (its routes, its demo
 * data) is most of a small test's time: one a test closed is kept, reset to its start, for the
 * next test of the worker that asks for one with the same options (`spares`).
 */
interface Served {
  sandbox: Sandbox;
  /** the options as started, but for their hooks: a test may change them (`sb.store.opts.latencyMs = …`) */
  started: Omit<SandboxOptions, 'onAnswer' | 'warn'>;
  /** the server's listeners as started: a test may add its own (`sb.app.server.on('request', …)`) */
  listeners: Map<string | symbol, unknown[]>;
  answered: ((answer: Answer) => void) | undefined;
  /** a snapshot was asked for: snapshots outlive a reset, so the sandbox is not kept */
  snapshots: boolean;
  /** the port asked for: 0, a free one */
  port: number;
}

/** Sandboxes closed by their tests and reset to their start, by their options (spareKey). */
const spares = new Map<string, Served[]>();

/**
 * The options as a key of `spares`, or undefined for a sandbox that is never kept: one whose
 * options hold more than data (a hook of the test's), or a state file (its file is the test's).
 */
function spareKey(opts: Partial<SandboxOptions>): string | undefined {
  if (opts.onAnswer !== undefined || opts.stateFile !== undefined || opts.warn !== undefined) return undefined;
  return plainData(opts) ? JSON.stringify(sortedKeys(opts)) : undefined;
}

/** Whether a value is JSON's data alone: no function, no instance of a class, no bigint. */
function plainData(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(plainData);
  if (typeof value !== 'object' || ![Object.prototype, null].includes(Object.getPrototypeOf(value))) return false;
  return Object.values(value as object).every(plainData);
}

/** The value with the keys of every object in order, so that equal options make one key. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}

async function startServed(opts: Partial<SandboxOptions>): Promise<Served> {
  // Filled in below: the sandbox's hook needs the record before the sandbox is started.
  const served = {
    listeners: new Map(),
    answered: undefined,
    snapshots: false,
    port: opts.port ?? 0,
  } as unknown as Served;
  served.sandbox = await startSandbox({
    port: 0,
    retryAfter: 0,
    clock: 'manual',
    ...opts,
    onAnswer: (answer) => served.answered?.(answer),
  });
  const { server } = served.sandbox.app;
  // Not listening until a test has it (listen): each test gets an address of its own.
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const { onAnswer: _onAnswer, warn: _warn, ...data } = served.sandbox.store.opts;
  served.started = structuredClone(data);
  server.on('request', (request: { url?: string }) => {
    if (request.url?.includes('snapshot')) served.snapshots = true;
  });
  for (const name of server.eventNames()) served.listeners.set(name, server.listeners(name));
  return served;
}

/**
 * Listens on the port the test asked for, else on a new free one; the sandbox's pages and paging
 * links name it.
 */
async function listen(served: Served): Promise<number> {
  const { app, store } = served.sandbox;
  await new Promise<void>((resolve, reject) => {
    app.server.once('error', reject);
    app.server.listen({ port: served.port, host: store.opts.host }, () => {
      app.server.off('error', reject);
      resolve();
    });
  });
  const port = (app.server.address() as { port: number }).port;
  store.opts.port = port;
  setSandboxAddress(app, store.opts.host, port);
  return port;
}

/**
 * What a test's `close()` does once its answers are judged: the address stops answering (its
 * connections are cut, as a stopped process's are); then the sandbox is reset to its start
 * (POST /_sandbox/reset: the demo data, the clock, the knobs and generators, an empty journal;
 * the work in progress dropped), its options and the server's listeners as started, and kept
 * for the next test; or closed for good when it is not kept, it took snapshots, or a request is
 * still held (the latency fault): a reset keeps both.
 */
async function retire(served: Served, key: string | undefined): Promise<void> {
  served.answered = undefined;
  const { app, store } = served.sandbox;
  if (key === undefined || served.snapshots) return served.sandbox.close();
  await new Promise<void>((resolve) => {
    app.server.close(() => resolve());
    app.server.closeAllConnections();
  });
  const reset = await app.inject({
    method: 'POST',
    url: '/_sandbox/reset',
    headers: {
      host: '127.0.0.1',
      ...(store.opts.controlToken ? { [CONTROL_TOKEN_HEADER]: store.opts.controlToken } : {}),
    },
  });
  if (reset.statusCode !== 200 || store.clock.pending > 0) {
    // Listening again for a moment: fastify's close expects a listening server.
    await listen(served);
    return served.sandbox.close();
  }
  Object.assign(store.opts, structuredClone(served.started));
  for (const name of app.server.eventNames()) {
    const kept = served.listeners.get(name) ?? [];
    for (const l of app.server.listeners(name))
      if (!kept.includes(l)) app.server.off(name, l as (...args: unknown[]) => void);
  }
  let list = spares.get(key);
  if (list === undefined) spares.set(key, (list = []));
  list.push(served);
}

const clockDrivers = new WeakMap<Sandbox, (answer: Answer) => void>();

/**
 * Until the test ends, the sandbox's clock moves `seconds` on each time the recipes being built
 * have all been read (a GET whose route matches `route`) since it last moved, as the last such
 * answer leaves; with no build going, at each such answer. A command that polls thus reads
 * every step of every build in turn, however fast it polls or the machine runs.
 */
export function advanceClockOnRead(sb: Sandbox, route: RegExp, seconds: number): void {
  const read = new Set<string>();
  clockDrivers.set(sb, (answer) => {
    if (answer.method !== 'GET' || !route.test(answer.route ?? '')) return;
    const id = /^\{"recipe_id":"?(\d+)/.exec(answer.body)?.[1];
    if (id) read.add(id);
    const building = sb.store.state.recipes.filter(
      (r) => !r.intermediate && (r.state === 'extracting_data' || r.state === 'building_dependencies'),
    );
    if (building.every((r) => read.has(String(r.id)))) {
      read.clear();
      sb.store.clock.advance(seconds * 1000);
    }
  });
  onTestFinished(() => {
    clockDrivers.delete(sb);
  });
}

/** The route of a v3.1 recipe's reading, for advanceClockOnRead. */
export const RECIPE_READ = /^\/api\/v3\.1\/automated-recipes\/:\w+\/$/;

/**
 * The sandbox of a test file: started before its tests, closed after them. `t.sb` is the
 * sandbox; `t.edp(...argv)` runs the CLI against it with `trailing` appended (e.g. `-w 101`).
 * `const t = useSandbox({ buildSeconds: 0.05 }, ['-w', '101']);`
 * With `{ each: true }` every test gets a sandbox of its own, fresh from the demo data:
 * for tests that change the agency, so that none depends on what another left or on their order.
 */
export function useSandbox(
  opts: Partial<SandboxOptions> = {},
  trailing: string[] = [],
  scope: { each?: boolean } = {},
): { sb: Sandbox; edp(...argv: string[]): Promise<CliResult> } {
  let started: Sandbox | undefined;
  const start = async () => {
    started = await sandbox(opts);
  };
  const stop = async () => {
    await started?.close();
    started = undefined;
  };
  if (scope.each) {
    beforeEach(start);
    afterEach(stop);
  } else {
    beforeAll(start);
    afterAll(stop);
  }
  const current = () => {
    if (!started) throw new Error('useSandbox: the sandbox starts in a hook; use it inside tests and hooks');
    return started;
  };
  return {
    get sb() {
      return current();
    },
    edp: (...argv: string[]) => cli(current(), [...argv, ...trailing]),
  };
}

/**
 * A fresh config folder and no credentials from the environment: a run sees only what it
 * stores there itself (`auth login`, the token cache). `file` is its config file. The folder is
 * removed when the test that asked for it ends, or after the test file when asked for outside a
 * test (vitest takes no afterAll hook from inside a running test); `remove()` removes it sooner.
 */
export function freshConfig(): {
  dir: string;
  env: Record<string, string | undefined>;
  file: string;
  remove(): void;
} {
  const dir = tempDir();
  if (TestRunner.getCurrentTest()) onTestFinished(dir.remove);
  else afterAll(dir.remove);
  const env = { EDP_CONFIG_DIR: dir.dir, EDP_USERNAME: undefined, EDP_PASSWORD: undefined };
  return { dir: dir.dir, env, file: join(dir.dir, 'config.json'), remove: dir.remove };
}

export { tempDir } from './temp-dirs.js';

/** The salt every test file's own config folder starts with (see fileConfigDir). */
const FILE_CONFIG_SALT = 'test-files-token-key-salt-0000000000000000000';

/**
 * The test file's own config folder, which `cli()` runs use unless given another. It starts
 * with the salt of the token cache's identity digests that every file's folder has: the digest of
 * the demo credentials (scrypt, ~50 ms) is then computed once per worker, not once per file
 * (src/config/token-cache.ts keeps a process's digests). How a file gets its salt is tested with
 * folders of their own (test/config/store.test.ts, test/api/auth-identity.test.ts).
 */
function fileConfigDir(): string {
  const dir = fileTempDir('edp-cfg-');
  const file = join(dir, 'config.json');
  if (!existsSync(file))
    writeFileSync(file, `${JSON.stringify({ token_key_salt: FILE_CONFIG_SALT })}\n`, { mode: 0o600 });
  return dir;
}

export interface CliResult {
  code: number;
  /** the pauses the run took, in ms (before a repeat, between a wait's reads), none of them waited */
  pauses: number[];
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (lossless) */
  json<T = any>(): T;
  /** stderr parsed as the JSON error document */
  errorJson(): ErrorDocument;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** pretend stdout/stdin are a terminal */
  tty?: boolean;
  /** the pretend terminal's width (default 120) */
  columns?: number;
  /** pretend stderr is a terminal too */
  stderrTty?: boolean;
  signal?: AbortSignal;
  /** called with all of stdout so far, each time the command writes to it */
  onStdout?: (all: string) => void;
  /** called with all of stderr so far, each time the command writes to it */
  onStderr?: (all: string) => void;
  /** stdout's reader goes away once it has this many lines (`| head -N`): later writes fail with EPIPE */
  stdoutLines?: number;
  /** the same for stderr */
  stderrLines?: number;
  /** stdout and stderr are one pipe whose reader goes away after this many lines (`2>&1 | head -N`) */
  bothLines?: number;
  /** the run's clock (IO.now) starts at this time (ms since the epoch) rather than the real time: "now" pinned */
  now?: number;
}

/** A pause that does not wait: it yields once to the event loop, and ends early on `signal`. */
export function noWait(_ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    setImmediate(resolve);
  });
}

/** The API as the demo agency's chief at a sandbox, in process: what domain tests (src/fleet, src/accounts) call. */
export function chiefService(sb: Sandbox, opts: { sleep?: typeof noWait } = {}): Service {
  return new Service({
    baseUrl: sb.url,
    timeoutMs: 10_000,
    credentials: { username: USERNAME, password: PASSWORD },
    profile: 'default',
    ...opts,
  });
}

/** A run's pretend time (IO.sleep and IO.now), and the pauses it was asked for. */
export interface PretendTime {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** every pause asked for, in ms, in order */
  pauses: number[];
}

/**
 * Time for one in-process run: a pause does not wait (it yields once to the event loop, and
 * ends with the signal's reason if the signal aborted meanwhile), then moves the clock on to its
 * end; pauses under way at once end at the latest of their ends, not at their sum. The clock
 * starts at `start`, the real time by default. A wait thus reaches its deadline after the pauses it took.
 */
export function pretendTime(start: number = Date.now()): PretendTime {
  let t = start;
  const pauses: number[] = [];
  return {
    now: () => t,
    pauses,
    sleep(ms, signal) {
      pauses.push(ms);
      const until = t + Math.max(0, ms);
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        setImmediate(() => {
          if (signal?.aborted) return reject(signal.reason);
          t = Math.max(t, until);
          resolve();
        });
      });
    },
  };
}

/**
 * A stream whose reader stops after `lines` lines, like `head -N` at the end of a pipe: the
 * write that brings the count to `lines` still lands, every later one fails with EPIPE (the
 * stream then emits 'error' and is destroyed, as process.stdout does).
 */
export class ClosingStream extends Writable {
  text = '';
  /** a pipe, not a terminal or a file (io.ts, keepsWrites) */
  readonly isPipe = true;
  constructor(
    private readonly lines: number,
    private readonly onText?: (all: string) => void,
  ) {
    super({ decodeStrings: false });
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (this.text.split('\n').length - 1 >= this.lines)
      return cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE', errno: -32, syscall: 'write' }));
    this.text += String(chunk);
    this.onText?.(this.text);
    cb();
  }
}

/**
 * Runs the command line in-process, as `edp argv…`, against `sb` with the demo agency's
 * credentials and a private config directory (unless the env given overrides them).
 */
export async function cli(
  sb: Sandbox | { url: string } | undefined,
  argv: string[],
  opts: CliOptions = {},
): Promise<CliResult> {
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  const stream = (lines: number | undefined, take: (text: string) => void): Writable => {
    if (lines !== undefined) return new ClosingStream(lines, take);
    let all = '';
    return new PassThrough().on('data', (d) => take((all += d)));
  };
  const merged = opts.bothLines === undefined ? undefined : stream(opts.bothLines, (all) => (out = err = all));
  const stdout =
    merged ??
    stream(opts.stdoutLines, (all) => {
      out = all;
      opts.onStdout?.(out);
    });
  const stderr =
    merged ??
    stream(opts.stderrLines, (all) => {
      err = all;
      opts.onStderr?.(err);
    });
  if (opts.tty) {
    Object.assign(stdout, { isTTY: true, columns: opts.columns ?? 120 });
    Object.assign(stdin, { isTTY: true });
  }
  if (opts.stderrTty) Object.assign(stderr, { isTTY: true });
  stdin.end(opts.stdin ?? '');
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // The test file's own config folder: tokens and settings one file leaves never reach another.
    EDP_CONFIG_DIR: opts.env?.EDP_CONFIG_DIR ?? fileConfigDir(),
    ...(sb ? { EDP_BASE_URL: sb.url } : {}),
    EDP_USERNAME: USERNAME,
    EDP_PASSWORD: PASSWORD,
    ...opts.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  // The run's pauses (before a repeat, between a wait's reads) do not wait, on a clock they move
  // on: a retried request or a wait costs no wall time, and a wait still ends at its deadline.
  const time = pretendTime(opts.now);
  const code = await main(argv, { stdin, stdout, stderr, env, sleep: time.sleep, now: time.now }, opts.signal);
  await new Promise((r) => setImmediate(r));
  return {
    code,
    pauses: time.pauses,
    stdout: out,
    stderr: err,
    json: () => parseJson(out) as any,
    errorJson: () => JSON.parse(err.trim().split('\n').pop()!),
  };
}

/** Raw HTTP against the sandbox (or any server at a `url`), for contract-level tests. */
export async function http(
  sb: Pick<Sandbox, 'url'>,
  method: string,
  path: string,
  opts: {
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
    basic?: boolean | [string, string];
    token?: string;
  } = {},
): Promise<{ status: number; headers: Headers; text: string; body: any }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.basic) {
    const [u, p] = opts.basic === true ? [USERNAME, PASSWORD] : opts.basic;
    headers.authorization = `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
  }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  } else if (body !== undefined) {
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(sb.url + path, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? parseJson(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** A workspace token straight from the sandbox. */
export async function tokenFor(sb: Sandbox, workspaceId: number): Promise<string> {
  const res = await http(sb, 'POST', '/api/v3/token', { basic: true, body: { workspace_id: workspaceId } });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`);
  return res.body.token;
}

/**
 * Runs the CLI at a pretend terminal, answering each prompt once its question appears on
 * stderr (keystrokes: '\r' enter, '\u001b[B' arrow down).
 */
export async function answerPrompts(argv: string[], answers: Array<[string, string]>, env: Record<string, string>) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  const pending = [...answers];
  stdout.on('data', (d) => (out += d));
  // Each question is looked for in what was written after the previous answer.
  let from = 0;
  stderr.on('data', (d) => {
    err += d;
    const next = pending[0];
    const at = next ? err.indexOf(next[0], from) : -1;
    if (next && at >= 0) {
      pending.shift();
      from = err.length;
      // Answered on the next turn, once the prompt that asked listens for keys.
      setImmediate(() => stdin.write(next[1]));
    }
  });
  const code = await main(argv, { stdin, stdout, stderr, env: { PATH: process.env.PATH, ...env } });
  return { code, out, err, unanswered: pending.length };
}

/**
 * Parses `edp argv…` without running the verb (the runF seam): which verb it names, its typed
 * options and positional arguments, and the global flags. The exit code is commander's (2 for
 * a parse error), with what it printed.
 */
export async function parse(argv: string[]): Promise<{ code: number; parsed: Parsed | undefined; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (d) => (err += d));
  let parsed: Parsed | undefined;
  const code = await main(
    argv,
    { stdin: new PassThrough(), stdout, stderr, env: { PATH: process.env.PATH } },
    undefined,
    (p) => {
      parsed = p;
    },
  );
  return { code, parsed, stderr: err };
}

/** Calls a sandbox control (`/_sandbox/…`) and returns its JSON answer; throws unless 2xx. */
export async function control(sb: Sandbox, method: string, path: string, body?: unknown): Promise<any> {
  const res = await http(sb, method, `/_sandbox${path}`, body === undefined ? {} : { body });
  if (res.status < 200 || res.status > 299) throw new Error(`${method} /_sandbox${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** Moves the sandbox's clock `seconds` forward: the work that becomes due is done, in order. */
export async function advanceClock(sb: Sandbox, seconds: number): Promise<void> {
  await control(sb, 'POST', '/clock', { advance_seconds: seconds });
}

/**
 * Moves the sandbox's clock to each of its pending timers in turn until none is left: the
 * builds, loads and extract runs in progress are done (webhook deliveries due are attempted).
 */
export async function settleClock(sb: Sandbox): Promise<void> {
  await control(sb, 'POST', '/clock', { settle: true });
}

/**
 * Polls `check` until it returns a truthy value (which is returned), or fails after `timeoutMs`:
 * a backstop for a condition that never comes, well above what a busy machine needs and below
 * the test timeout, so that the failure names what was awaited.
 */
export async function waitUntil<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 20_000, intervalMs = 10, what = 'condition' } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    // The pause between looks at a condition: how long it is never decides the outcome.
    // eslint-disable-next-line no-restricted-syntax
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
