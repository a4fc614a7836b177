import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { parseJson, stringifyJson } from '../util/json.js';
import { SandboxError, answerFrameworkError, errorBody, sendError, usesCodeEnvelope } from './errors.js';
import { RequestJournal, installJournal, journalRequest } from './journal.js';
import { installOpenApi } from './openapi.js';
import { requireEveryOperation } from './operations.js';
import { setSandboxAddress } from './http.js';
import { areas } from './areas.js';
import { esc } from './pages/html.js';
import { adminRoutes, refuseControl } from './admin.js';
import { checkBodyLimits, checkWellFormed, tooDeepBody, tooDeepPath } from './limits.js';
import { answerAfterSave, loadState } from './persistence.js';
import { seedCatalog, seedCore } from './seed.js';
import { applyFixture } from './fixture/apply.js';
import { snapshotRoutes } from './snapshots.js';
import { Store, emptyState } from './store.js';
import { defaultSandboxOptions, type SandboxOptions } from './options.js';
import { pathPattern } from '../contract/operations.js';

export interface Sandbox {
  url: string;
  port: number;
  store: Store;
  app: FastifyInstance;
  close(): Promise<void>;
}

interface RoutePattern {
  method: string;
  regex: RegExp;
}

const isApi = (request: FastifyRequest) => request.url.startsWith('/api/');

/** `405 method_not_allowed` (the contract's "method unsupported"), with the methods the path takes. */
function methodNotAllowed(method: string, allowed: Iterable<string>): SandboxError {
  const allow = [...new Set(allowed)].join(', ');
  return new SandboxError(405, 'method_not_allowed', `Method "${method}" not allowed.`, {}, {}, { allow });
}

/**
 * Trace ids (`x-im-trace-id`): 16 hex digits, a random half per sandbox and a counter, unique
 * within a run and cheap to make per request.
 */
function traceIds(): () => string {
  const prefix = randomBytes(4).toString('hex');
  let n = 0;
  return () => {
    n = (n + 1) >>> 0;
    return prefix + n.toString(16).padStart(8, '0');
  };
}

/**
 * Replies as JSON: the native stringifier for replies that hold no integer beyond 2^53 (nearly
 * all), the lossless one for those that do. A LosslessNumber shows itself in the native text
 * as an object with `"isLosslessNumber":true` (no string of the data can, its quotes would be
 * escaped); a bigint makes the native stringifier throw. Either way the answer is written exactly.
 */
export function replyJson(payload: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch {
    return stringifyJson(payload);
  }
  if (text === undefined) return 'null';
  return text.includes('"isLosslessNumber":true') ? stringifyJson(payload) : text;
}

/** Starts the emulator. `port: 0` picks a free port (tests). */
export async function startSandbox(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const opts: SandboxOptions = { ...defaultSandboxOptions, ...options };
  const loaded = opts.stateFile ? loadState(opts.stateFile) : undefined;
  const store = new Store(opts, loaded ?? emptyState());
  for (const area of areas) area.init?.(store);
  if (!loaded) {
    seedCatalog(store);
    for (const area of areas) area.catalog?.(store);
    if (opts.fixture) applyFixture(store, opts.fixture);
    else {
      seedCore(store);
      for (const area of areas) area.seed?.(store);
    }
  }

  const nextTraceId = traceIds();
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    bodyLimit: 5 * 1024 * 1024,
    frameworkErrors: (error, request, reply) => {
      answerFrameworkError(error, request, reply, nextTraceId());
      journalRequest(journal, store, request, reply);
    },
  });
  const journal = new RequestJournal();
  const patterns: RoutePattern[] = [];
  // The methods of each path without parameters: a parameter route of the same prefix
  // (`/api/v3/extracts/:id`) must not take another method of such a path
  // (`/api/v3/extracts/migrate-wide`) as its own.
  const staticMethods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) patterns.push({ method: m, regex: pathPattern(route.url) });
    if (!route.url.includes(':')) {
      const known = staticMethods.get(route.url) ?? new Set<string>();
      for (const m of methods) known.add(m);
      staticMethods.set(route.url, known);
    }
  });
  /** 405 for a path served without parameters, reached with another method through a parameter route. */
  const shadowedPath = (request: FastifyRequest): SandboxError | undefined => {
    if (!request.routeOptions.url?.includes(':')) return undefined;
    const known = staticMethods.get(request.url.split('?')[0]!);
    return known && !known.has(request.method) ? methodNotAllowed(request.method, known) : undefined;
  };

  // Bodies are parsed without losing big integers; a body that is not JSON is `malformed_request`,
  // and so is one that is not UTF-8 (JSON exchanged between systems is UTF-8, RFC 8259 8.1):
  // decoded with replacement characters, it would be stored as other text than was sent.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes))
      return done(new SandboxError(400, 'malformed_request', 'The request body is not valid UTF-8.'), undefined);
    const text = bytes.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    // Too deep is found in one pass over the text, before anything is parsed: a body nested
    // thousands deep costs what reading it costs, and never stalls the requests behind it.
    const deep = tooDeepPath(text);
    if (deep) return done(tooDeepBody(deep), undefined);
    let value: unknown;
    try {
      value = parseJson(text);
    } catch (err) {
      return done(
        err instanceof RangeError
          ? tooDeepBody()
          : new SandboxError(400, 'malformed_request', 'The request body is not valid JSON.'),
        undefined,
      );
    }
    try {
      checkBodyLimits(value);
      if (text.includes('\\u')) checkWellFormed(value);
    } catch (err) {
      return done(err as Error, undefined);
    }
    done(null, value);
  });
  // Bodies are JSON only: any other content type (text/plain included, which fastify would
  // parse as text) is 415 `bad_request`, the contract's catch-all for other 4xx.
  app.removeContentTypeParser('text/plain');
  app.setReplySerializer(replyJson);

  // Per-request work is kept to what each answer needs: plain callback hooks (no promise per
  // hook), the fault knobs read as numbers (the controls change them while serving).
  app.addHook('onRequest', (request, reply, done) => {
    // Work whose time has come is done before anything is answered: what a request sees
    // depends on the sandbox's clock only, not on how soon a timer got its turn.
    store.clock.runDue();
    reply.header('x-im-trace-id', nextTraceId());
    // The answer's time is the sandbox's clock (RFC 9110 Date), which a manual clock moves.
    reply.header('date', new Date(store.clock.now()).toUTCString());
    if (!isApi(request)) return done(refuseControl(store, request, reply));
    const shadowed = shadowedPath(request);
    if (shadowed) return done(shadowed);
    // --fail-rate: refused before anything is done, as a dependency timeout would be.
    const fail = () => {
      if (opts.failRate > 0 && store.faultRandom() < opts.failRate) {
        return done(
          new SandboxError(
            503,
            'service_unavailable',
            'A dependency timed out; try again later.',
            {},
            {},
            { 'retry-after': String(opts.retryAfter) },
          ),
        );
      }
      done();
    };
    if (opts.latencyMs > 0) store.clock.setTimeout(fail, opts.latencyMs, true);
    else fail();
  });

  answerAfterSave(app, store);

  // One hook as the answer leaves, after the state file's (so that the status is the final one):
  // the request journal, then --reset-rate: the request was carried out, then the connection
  // drops before the answer. An onSend hook rather than onResponse: each kind of hook costs
  // every request, and onSend is needed anyway.
  app.addHook('onSend', (request, reply, payload, done) => {
    journalRequest(journal, store, request, reply);
    if (opts.onAnswer && isApi(request))
      opts.onAnswer({
        method: request.method,
        // A 405 is the router's: no operation answered it, whichever route caught the path.
        route: request.is404 || reply.statusCode === 405 ? undefined : request.routeOptions.url,
        status: reply.statusCode,
        body: typeof payload === 'string' ? payload : payload === null || payload === undefined ? '' : String(payload),
      });
    if (opts.resetRate > 0 && isApi(request) && store.faultRandom() < opts.resetRate) {
      request.raw.socket?.destroy();
    }
    done(null, payload);
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof SandboxError) return sendError(request, reply, error);
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 415)
      return sendError(
        request,
        reply,
        new SandboxError(415, 'bad_request', 'Unsupported media type; send application/json.'),
      );
    if (status === 413)
      return sendError(request, reply, new SandboxError(413, 'bad_request', 'Request body too large.'));
    if (status && status >= 400 && status < 500)
      return sendError(request, reply, new SandboxError(status, 'bad_request', (error as Error).message));
    return sendError(request, reply, new SandboxError(500, 'internal_error', 'A server error occurred.'));
  });

  // Unknown routes: a path that exists with another method is 405; a path that exists with a
  // trailing slash answers 301 to it (the contract's trap for clients that follow redirects);
  // anything else is 404 (`not_found` under the recipe prefix).
  app.setNotFoundHandler((request, reply) => {
    const [p, qs] = request.url.split('?');
    const matches = patterns.filter((r) => r.regex.test(p!));
    if (matches.length > 0 && !matches.some((m) => m.method === request.method))
      return sendError(
        request,
        reply,
        methodNotAllowed(
          request.method,
          matches.map((m) => m.method),
        ),
      );
    if (!p!.endsWith('/') && patterns.some((r) => r.regex.test(`${p}/`))) {
      // The path as sent, slash added: the header repeats it, the page escapes it.
      const location = `${p}/${qs !== undefined ? `?${qs}` : ''}`;
      return reply
        .code(301)
        .header('location', location)
        .type('text/html; charset=utf-8')
        .send(`<a href="${esc(location)}">Moved Permanently</a>`);
    }
    const err = new SandboxError(404, 'not_found', usesCodeEnvelope(request.url) ? 'No such resource.' : 'Not found.');
    return reply.code(404).type('application/json').send(errorBody(request.url, err));
  });

  // Every operation of the registry served, each once, and nothing else under /api/: or no start.
  requireEveryOperation(app);
  adminRoutes(app, store);
  installJournal(app, journal);
  snapshotRoutes(app, store, journal);
  installOpenApi(app);
  for (const area of areas) area.routes(app, store);

  await app.listen({ port: opts.port, host: opts.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  store.opts.port = port;
  setSandboxAddress(app, opts.host, port);
  return {
    url,
    port,
    store,
    app,
    async close() {
      store.clock.close();
      await app.close();
      await store.flush();
    },
  };
}
