import type { FastifyInstance } from 'fastify';
import { z, type ZodType } from 'zod';
import { usesCodeEnvelope } from './errors.js';
import { VERSION } from '../version.js';

/**
 * The OpenAPI 3.1 document of the operations the sandbox serves under /api/ (both versions),
 * built from the routes as registered and the zod schemas that validate their bodies and
 * queries: a route declares them in its `config` (`{ config: { body, query, success } }`).
 * Served at `GET /_sandbox/openapi.json`.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the zod schema that validates the request body */
    body?: ZodType;
    /** a zod object whose keys are the query parameters the operation reads */
    query?: z.ZodObject;
    /** the success status, when it is not 200 */
    success?: number;
  }
}

interface RegisteredRoute {
  method: string;
  url: string;
  body?: ZodType;
  query?: z.ZodObject;
  success?: number;
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
function openApiPath(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part;
      params.push(part.slice(1));
      return `{${part.slice(1)}}`;
    })
    .join('/');
  return { path, params };
}

const ERROR_ENVELOPE = {
  type: 'object',
  description: 'Errors of the v3.1 recipe operations and the v3.1 accounts list (contract, Errors "Two shapes").',
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

function errorResponses(url: string): Record<string, unknown> {
  const ref = {
    $ref: usesCodeEnvelope(url) ? '#/components/schemas/ErrorEnvelope' : '#/components/schemas/DetailError',
  };
  const content = { 'application/json': { schema: ref } };
  const traced = { 'x-im-trace-id': { $ref: '#/components/headers/TraceId' } };
  return {
    '4XX': { description: 'Refused; see the contract for the codes of this operation.', headers: traced, content },
    '503': {
      description: 'Temporary infrastructure failure; wait Retry-After seconds.',
      headers: { ...traced, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
      content,
    },
    '5XX': { description: 'Service fault.', headers: traced, content },
  };
}

function security(url: string, method: string): Array<Record<string, string[]>> {
  if (/^\/api\/v3\/(token|workspaces|recipes\/|get_iframe_url|roles\/)/.test(url) && !/\/dashboards$/.test(url))
    return [{ basic: [] }];
  if (/\/dashboards$/.test(url)) return [{ basic: [] }, { bearer: [] }];
  if (url === '/api/v3/iframe/' && method === 'GET') return [];
  return [{ bearer: [] }, { cookie: [], workspace: [] }];
}

export function buildOpenApiDocument(routes: RegisteredRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const sorted = [...routes].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  for (const route of sorted) {
    const { path, params } = openApiPath(route.url);
    const parameters: unknown[] = params.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (route.query) {
      const shape = route.query.shape as Record<string, ZodType>;
      for (const [name, schema] of Object.entries(shape)) {
        parameters.push({
          name,
          in: 'query',
          required: !schema.safeParse(undefined).success,
          schema: jsonSchema(schema),
        });
      }
    }
    const success = route.success ?? 200;
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      tags: [/^\/api\/(v3(?:\.1)?)\//.exec(route.url)?.[1] ?? 'api'],
      security: security(route.url, route.method),
      parameters,
      responses: {
        [String(success)]: {
          description: success === 204 ? 'Done; no body.' : 'Success (body shape as in the contract).',
          headers: { 'x-im-trace-id': { $ref: '#/components/headers/TraceId' } },
        },
        ...errorResponses(route.url),
      },
    };
    if (route.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(route.body) } } };
    }
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Embedded Data Pipeline API (edp sandbox)',
      version: VERSION,
      description:
        'Operations the edp sandbox serves for the contract, v3 and v3.1. Request schemas are the ones the sandbox validates with.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { ErrorEnvelope: ERROR_ENVELOPE, DetailError: DETAIL_ERROR },
      headers: {
        TraceId: { description: 'Quote it to support.', schema: { type: 'string' } },
        RetryAfter: { description: 'Seconds to wait (30 in the contract).', schema: { type: 'integer' } },
      },
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'Agency credentials' },
        bearer: { type: 'http', scheme: 'bearer', description: 'Workspace token from POST /api/v3/token' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'dts_session_id' },
        workspace: { type: 'apiKey', in: 'header', name: 'X-IM-WORKSPACE-ID' },
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
    const config = (route.config ?? {}) as { body?: ZodType; query?: z.ZodObject; success?: number };
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url, body: config.body, query: config.query, success: config.success });
    }
  });
  let document: Record<string, unknown> | undefined;
  app.get('/_sandbox/openapi.json', async () => (document ??= buildOpenApiDocument(routes)));
}
