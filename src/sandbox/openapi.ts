import type { FastifyInstance } from 'fastify';
import { z, type ZodType } from 'zod';
import { usesCodeEnvelope } from './errors.js';
import { VERSION } from '../version.js';
import { BODY_STATUSES, COMMON_STATUSES, openApiPath, operationOf, type Operation } from '../contract/operations.js';
import { ANSWER_SCHEMAS, type AnswerShape } from '../contract/answers.js';
import { stateRulesOf } from '../contract/state-rules.js';
import { EVENT_TYPES } from '../contract/events.js';
import { SNAPSHOT_NAME } from './snapshots.js';

/**
 * The OpenAPI 3.1 document of the operations the sandbox serves under /api/ (both versions),
 * built from the contract's table of operations (src/contract/operations.ts: summaries,
 * statuses, paging, the shapes of answers) and the request schemas of src/contract/requests.ts,
 * which the routes validate bodies and queries with: a route declares its own in its `config`
 * (`{ config: { body, query } }`).
 * Served at `GET /_sandbox/openapi.json`.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the zod schema that validates the request body */
    body?: ZodType;
    /** a zod object whose keys are the query parameters the operation reads (paging aside) */
    query?: z.ZodObject;
  }
}

interface RegisteredRoute {
  method: string;
  url: string;
  body?: ZodType;
  query?: z.ZodObject;
}

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: ZodType): JsonSchema {
  // io 'input': what a client sends; custom checks (integer ids read without loss) carry their
  // JSON type in their metadata.
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** `/api/v3/extracts/:id/run` → `/api/v3/extracts/{id}/run` and the parameter names. */
function pathAndParams(url: string): { path: string; params: string[] } {
  return { path: openApiPath(url), params: [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!) };
}

/**
 * A path parameter: a name (a data source's, a destination's) is text; an id is a positive
 * integer, declared as its digits since recipe ids pass 2^53 (a generated client must not make
 * it a JavaScript number).
 */
function pathSchema(name: string): JsonSchema {
  return name.endsWith('_name')
    ? { type: 'string', minLength: 1 }
    : { type: 'string', pattern: '^[1-9][0-9]*$', description: 'an integer id, in digits' };
}

const ERROR_ENVELOPE = {
  type: 'object',
  description: 'Errors of the v3.1 recipe operations and the v3.1 accounts list: the second of the two error shapes.',
  properties: {
    code: { type: 'string', description: 'stable, machine-readable; an open set' },
    message: { type: 'string', description: 'free text' },
    details: { type: 'object', description: 'always an object, {} when nothing extra' },
  },
  required: ['code', 'message', 'details'],
};

const DETAIL_ERROR = {
  type: 'object',
  description: 'Errors of every other operation (v3 recipe operations included).',
  properties: { detail: { type: 'string' } },
  required: ['detail'],
  additionalProperties: true,
};

const STATUS_WORDS: Record<number, string> = {
  400: 'The request is wrong by itself (schema, query or configuration rules).',
  401: 'Authentication failed: token missing, invalid or expired, or session expired.',
  403: 'Authenticated, but the operation is unavailable to this user or agency.',
  404: 'No such resource for this caller.',
  409: 'The request contradicts the state of the resource.',
  410: 'The v3 recipe operations are switched off.',
  413: 'The request body is too large.',
  415: 'The request body is not JSON.',
  500: 'Service fault.',
  501: 'The destination cannot report whether its tables exist.',
  503: 'Temporary infrastructure failure; wait Retry-After seconds.',
};

/** What every request body must be besides its schema, which JSON Schema does not say (src/sandbox/limits.ts, server.ts). */
const BODY_ENCODING =
  'JSON in UTF-8: a body that is not valid UTF-8 is 400 malformed_request; a string or key holding a lone surrogate (an unpaired \\ud800-\\udfff escape) is 400 validation_error naming the field.';

function errorResponses(url: string, op: Operation | undefined, hasBody: boolean): Record<string, unknown> {
  const ref = {
    $ref: usesCodeEnvelope(url) ? '#/components/schemas/ErrorEnvelope' : '#/components/schemas/DetailError',
  };
  // A page's refusal is a page for a browser (Accept: text/html), the error body for a program.
  const content =
    op?.answer === 'html'
      ? { 'application/json': { schema: ref }, 'text/html': { schema: { type: 'string' } } }
      : { 'application/json': { schema: ref } };
  const traced = { 'x-im-trace-id': { $ref: '#/components/headers/TraceId' } };
  const statuses = [
    ...new Set([...COMMON_STATUSES, ...(op?.statuses ?? []), ...(hasBody ? BODY_STATUSES : [])]),
  ].sort();
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: STATUS_WORDS[status] ?? 'Refused.',
        headers: status === 503 ? { ...traced, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : traced,
        content,
      },
    ]),
  );
}

function successResponse(op: Operation | undefined): Record<string, unknown> {
  const status = op?.success ?? 200;
  const headers = { 'x-im-trace-id': { $ref: '#/components/headers/TraceId' } };
  const chosen = op?.chosen ? " The contract does not show this status; it is the sandbox's." : '';
  if (status === 204 || op?.answer === 'none')
    return { [String(status)]: { description: `Done; no body.${chosen}`, headers } };
  const response: Record<string, unknown> = { description: `Success.${chosen}`, headers };
  const ref = (name: AnswerShape) => ({ $ref: `#/components/schemas/${name}` });
  if (op?.answer === 'html') {
    response.content = { 'text/html': { schema: { type: 'string' } } };
  } else if (op?.answer) {
    // A list's items have their own shape where the contract shows it.
    const schema = op.items
      ? {
          allOf: [ref(op.answer), { type: 'object', properties: { results: { type: 'array', items: ref(op.items) } } }],
        }
      : ref(op.answer);
    response.content = { 'application/json': { schema } };
  }
  return { [String(status)]: response };
}

/** `page` and `page_size` of a list that pages, with the bounds of its kind. */
function pagingParameters(op: Operation): unknown[] {
  const paging = op.paging!;
  return [
    {
      name: 'page',
      in: 'query',
      required: false,
      description:
        paging.mode === 'v31'
          ? 'From 1; a page past the last is 400 invalid_query_parameter.'
          : paging.pastEnd === 'empty'
            ? 'From 1; a page past the last is an empty page. A value that is no page number is read as 1.'
            : 'From 1; a page past the last is 404, and so is a value that is no page number.',
      schema: { type: 'integer', format: 'int32', minimum: 1, default: 1 },
    },
    {
      name: 'page_size',
      in: 'query',
      required: false,
      description:
        paging.mode === 'v31'
          ? `1 to ${paging.maxPageSize}; out of bounds is 400 invalid_query_parameter.`
          : `A larger value is taken as ${paging.maxPageSize}; a value that is no size, as the default.`,
      schema:
        paging.mode === 'v31'
          ? { type: 'integer', format: 'int32', minimum: 1, maximum: paging.maxPageSize, default: 100 }
          : { type: 'integer', format: 'int32', minimum: 1, default: Math.min(100, paging.maxPageSize) },
    },
  ];
}

/** The 400s a request its schemas accept can still get, for what exists (src/contract/state-rules.ts). */
function stateRulesText(op: Operation | undefined): string | undefined {
  const rules = op ? stateRulesOf(op) : [];
  if (rules.length === 0) return undefined;
  const lines = [...new Set(rules.map((r) => r.says))].map((says) => `- ${says}`);
  return ['Beyond its schemas, 400 when:', ...lines].join('\n');
}

function security(url: string, method: string): Array<Record<string, string[]>> {
  if (/^\/api\/v3\/(token|workspaces|recipes\/|get_iframe_url|roles\/)/.test(url) && !/\/dashboards$/.test(url))
    return [{ basic: [] }];
  if (/\/dashboards$/.test(url)) return [{ basic: [] }, { bearer: [] }];
  if (url === '/api/v3/iframe/' && method === 'GET') return [];
  return [{ bearer: [] }, { cookie: [], workspace: [] }];
}

const ID = { type: 'integer', format: 'int64', minimum: 1 };

/**
 * The sandbox section: controls under /_sandbox/ a client of the document may call, which are
 * not operations of the service (docs/sandbox.md, Controls). Answered only to requests addressed
 * to a loopback address, or with X-Sandbox-Token when the sandbox has a control token.
 */
function sandboxPaths(): Record<string, Record<string, unknown>> {
  const headers = { 'x-im-trace-id': { $ref: '#/components/headers/TraceId' } };
  const refused = (description: string) => ({
    description,
    headers,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/DetailError' } } },
  });
  return {
    '/_sandbox/events': {
      post: {
        operationId: 'postSandboxEvents',
        summary: 'Trigger an event: one event of a type, delivered to the subscribed endpoints of a workspace',
        description:
          "Makes one event of `event_type` with a sample payload of its shape, `data` merged over the payload's `data` (objects key by key, keys of its own kept), and delivers it as every event is delivered (signed, retried, in `GET /_sandbox/webhook-deliveries`) to every active endpoint of the workspace subscribed to the type, silent types included. `edp sandbox trigger` calls it.",
        tags: ['sandbox'],
        security: [{}, { sandboxControl: [] }],
        requestBody: {
          description: BODY_ENCODING,
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['event_type', 'workspace_id'],
                properties: {
                  event_type: { type: 'string', enum: [...EVENT_TYPES] },
                  workspace_id: {
                    anyOf: [ID, { type: 'string', pattern: '^[1-9][0-9]*$', description: 'an integer id, in digits' }],
                  },
                  data: { type: 'object', description: "merged over the sample payload's data" },
                },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'The event made, and the endpoints it is being delivered to.',
            headers,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['event', 'endpoints'],
                  properties: {
                    event: {
                      type: 'object',
                      description: 'The body each endpoint is sent, with the workspace.',
                      required: ['id', 'type', 'timestamp', 'workspace_id', 'data'],
                      properties: {
                        id: { type: 'string' },
                        type: { type: 'string' },
                        timestamp: { type: 'string', description: '`YYYY-MM-DD HH:MM:SS.mmm` (UTC)' },
                        workspace_id: ID,
                        data: { type: 'object' },
                      },
                    },
                    endpoints: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['id', 'url'],
                        properties: { id: ID, url: { type: 'string' } },
                      },
                    },
                  },
                },
              },
            },
          },
          '400': refused(
            'An unknown event type (with the nearest names), `data` that is not an object, or a body that is not one.',
          ),
          '403': refused(
            'A request the controls do not answer: not addressed to a loopback address, from a page of another origin, or without the control token.',
          ),
          '404': refused('A workspace the agency does not have.'),
        },
      },
    },
    ...stateControls(headers, refused),
  };
}

/**
 * The state controls (src/sandbox/snapshots.ts): a reset to the start state, and snapshots of
 * the whole state taken, restored and listed.
 */
function stateControls(
  headers: Record<string, unknown>,
  refused: (description: string) => Record<string, unknown>,
): Record<string, Record<string, unknown>> {
  const json = (description: string, schema: Record<string, unknown>) => ({
    description,
    headers,
    content: { 'application/json': { schema } },
  });
  const control = (operationId: string, summary: string, description: string, responses: Record<string, unknown>) => ({
    operationId,
    summary,
    description,
    tags: ['sandbox'],
    security: [{}, { sandboxControl: [] }],
    responses: {
      ...responses,
      '403': refused(
        'A request the controls do not answer: not addressed to a loopback address, from a page of another origin, or without the control token.',
      ),
    },
  });
  const clock = {
    type: 'object',
    required: ['now', 'mode'],
    properties: { now: { type: 'string', format: 'date-time' }, mode: { type: 'string', enum: ['real', 'manual'] } },
  };
  const snapshot = {
    type: 'object',
    required: ['name', 'taken_at', 'size'],
    properties: {
      name: { type: 'string', pattern: SNAPSHOT_NAME.source },
      taken_at: { type: 'string', format: 'date-time', description: "when it was taken, by the sandbox's clock" },
      size: { type: 'integer', format: 'int64', minimum: 0, description: "bytes of the state's JSON" },
    },
  };
  const name = {
    name: 'name',
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: SNAPSHOT_NAME.source },
  };
  const badName = refused("A name that is not 1 to 64 letters, digits, '-' or '_'.");
  return {
    '/_sandbox/reset': {
      post: control(
        'postSandboxReset',
        'Return to the start state',
        "The state the sandbox started with (the demo data of --seed, the fixture of --fixture or --from, or what --state loaded), the clock's time and mode at start, the fault and webhook knobs as started; the request journal emptied, the work in progress dropped. Snapshots are kept.",
        {
          '200': json('The sandbox is back at its start.', {
            type: 'object',
            required: ['reset', 'clock'],
            properties: { reset: { const: true }, clock },
          }),
        },
      ),
    },
    '/_sandbox/snapshots': {
      get: control('listSandboxSnapshots', 'List the snapshots', 'Oldest first. They live in memory only.', {
        '200': json('The snapshots taken.', {
          type: 'object',
          required: ['count', 'results'],
          properties: {
            count: { type: 'integer', format: 'int32', minimum: 0 },
            results: { type: 'array', items: snapshot },
          },
        }),
      }),
    },
    '/_sandbox/snapshots/{name}': {
      put: {
        ...control(
          'putSandboxSnapshot',
          'Take a snapshot of the whole state',
          "A copy of the whole state and the clock's time and mode, under the name; one of that name is replaced.",
          {
            '200': json('A snapshot of that name was replaced.', snapshot),
            '201': json('The snapshot was taken.', snapshot),
            '400': badName,
          },
        ),
        parameters: [name],
      },
    },
    '/_sandbox/snapshots/{name}/restore': {
      post: {
        ...control(
          'restoreSandboxSnapshot',
          'Restore a snapshot',
          'The state exactly as taken and the clock at its time; builds in progress then go on. The fault knobs and the request journal stay as they are.',
          {
            '200': json('The snapshot was restored.', {
              type: 'object',
              required: ['restored', 'clock'],
              properties: { restored: snapshot, clock },
            }),
            '400': badName,
            '404': json('No snapshot of that name; the names known.', {
              type: 'object',
              required: ['detail', 'snapshots'],
              properties: { detail: { type: 'string' }, snapshots: { type: 'array', items: { type: 'string' } } },
            }),
          },
        ),
        parameters: [name],
      },
    },
  };
}

export function buildOpenApiDocument(routes: RegisteredRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const sorted = [...routes].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  for (const route of sorted) {
    const { path, params } = pathAndParams(route.url);
    const parameters: unknown[] = params.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: pathSchema(name),
    }));
    const op = operationOf(route.method, route.url);
    if (route.query) {
      const shape = route.query.shape as Record<string, ZodType>;
      for (const [name, schema] of Object.entries(shape)) {
        if (op?.paging && (name === 'page' || name === 'page_size')) continue;
        parameters.push({
          name,
          in: 'query',
          required: !schema.safeParse(undefined).success,
          schema: jsonSchema(schema),
        });
      }
    }
    if (op?.paging) parameters.push(...pagingParameters(op));
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      summary: op?.summary ?? `${route.method} ${path}`,
      tags: [/^\/api\/(v3(?:\.1)?)\//.exec(route.url)?.[1] ?? 'api'],
      security: security(route.url, route.method),
      parameters,
      responses: { ...successResponse(op), ...errorResponses(route.url, op, route.body !== undefined) },
    };
    const stateRules = stateRulesText(op);
    if (stateRules) operation.description = stateRules;
    if (route.body) {
      operation.requestBody = {
        description: BODY_ENCODING,
        required: true,
        content: { 'application/json': { schema: jsonSchema(route.body) } },
      };
    }
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Embedded Data Pipeline API (edp sandbox)',
      version: VERSION,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Operations the edp sandbox serves for the contract, v3 and v3.1. Request schemas are the ones the sandbox validates with.',
    },
    servers: [{ url: '/' }],
    // Each operation's tag: the version of the API it belongs to, or the sandbox's own controls.
    tags: [
      {
        name: 'sandbox',
        description:
          "The sandbox's own controls under /_sandbox/, not operations of the service (docs/sandbox.md, Controls).",
      },
      { name: 'v3', description: 'The v3 operations: every resource, the v3 recipe operations among them.' },
      {
        name: 'v3.1',
        description: 'The v3.1 operations: automated recipes and their templates, the accounts list, extract creation.',
      },
    ],
    paths: { ...paths, ...sandboxPaths() },
    components: {
      schemas: {
        ErrorEnvelope: ERROR_ENVELOPE,
        DetailError: DETAIL_ERROR,
        ...ANSWER_SCHEMAS,
      },
      headers: {
        // Every answer carries it (the contract, Errors: every response carries `x-im-trace-id`).
        TraceId: { description: 'Quote it to support.', required: true, schema: { type: 'string' } },
        RetryAfter: {
          description: 'Seconds to wait (30 in the contract).',
          schema: { type: 'integer', format: 'int32' },
        },
      },
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'Agency credentials' },
        bearer: { type: 'http', scheme: 'bearer', description: 'Workspace token from POST /api/v3/token' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'dts_session_id' },
        workspace: { type: 'apiKey', in: 'header', name: 'X-IM-WORKSPACE-ID' },
        sandboxControl: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Sandbox-Token',
          description:
            'The control token, when the sandbox has one (--control-token); without one, loopback requests need none.',
        },
      },
    },
  };
}

/** Collects the /api/ routes as they are registered and serves the document built from them. */
export function installOpenApi(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = (route.config ?? {}) as { body?: ZodType; query?: z.ZodObject };
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url, body: config.body, query: config.query });
    }
  });
  app.get('/_sandbox/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(documentText(routes)),
  );
}

/**
 * The document's text, made once per process for a set of routes: every sandbox registers the
 * same routes with the same schema objects, so one started after another (tests start hundreds)
 * serves the text the first one built. The routes are compared entry by entry, schemas by
 * identity, so a sandbox with other routes gets its own document.
 */
let built: { routes: RegisteredRoute[]; text: string } | undefined;
function documentText(routes: RegisteredRoute[]): string {
  const same =
    built?.routes.length === routes.length &&
    routes.every((r, i) => {
      const b = built!.routes[i]!;
      return r.method === b.method && r.url === b.url && r.body === b.body && r.query === b.query;
    });
  if (!same) built = { routes: [...routes], text: JSON.stringify(buildOpenApiDocument(routes)) };
  return built!.text;
}
