import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * An error answer. `code` and `details` fill the v3.1 envelope `{code, message, details}`;
 * other operations answer `{detail: message}` plus `v3Extra` (for example the v3 duplicate
 * create's `existing_recipe_ids`).
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly v3Extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'Not found.') => new SandboxError(404, 'not_found', what);
export const unauthorized = (why = 'Authentication credentials were not provided or are invalid.') =>
  new SandboxError(401, 'authentication_failed', why);
export const forbidden = (why = 'You do not have permission to perform this action.') =>
  new SandboxError(403, 'permission_denied', why);
export const badRequest = (why: string, extra: Record<string, unknown> = {}) =>
  new SandboxError(400, 'bad_request', why, {}, extra);

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

export const validationError = (fields: FieldError[]) =>
  new SandboxError(
    400,
    'validation_error',
    'The request body is invalid.',
    { fields },
    Object.fromEntries(fields.map((f) => [f.field || 'non_field_errors', [f.message]])),
  );

export const invalidQuery = (parameter: string, allowed: unknown[] = [], message?: string) =>
  new SandboxError(400, 'invalid_query_parameter', message ?? `Invalid value for query parameter "${parameter}".`, {
    parameter,
    allowed_values: allowed,
  });

/**
 * The v3.1 recipe operations and the v3.1 accounts list answer `{code, message, details}`;
 * everything else answers `{detail}` (docs/contract-rules.md, Two shapes 1 and 2).
 */
export function usesCodeEnvelope(url: string): boolean {
  const p = url.split('?')[0]!;
  return p.startsWith('/api/v3.1/automated-recipe') || /^\/api\/v3\.1\/connections\/[^/]+\/accounts(\/|$)/.test(p);
}

export function errorBody(url: string, err: SandboxError): Record<string, unknown> {
  if (usesCodeEnvelope(url)) return { code: err.code, message: err.message, details: err.details };
  return { detail: err.message, ...err.v3Extra };
}

/**
 * Every 503 carries `Retry-After: 30` (docs/contract-rules.md, Status meaning); this backs up any 503 raised
 * without one.
 */
const DEFAULT_RETRY_AFTER_S = '30';

export function sendError(request: FastifyRequest, reply: FastifyReply, err: SandboxError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  if (err.status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', DEFAULT_RETRY_AFTER_S);
  return reply.code(err.status).type('application/json').send(errorBody(request.url, err));
}

/**
 * Errors fastify raises before routing (a malformed URL such as `%ZZ`, a path parameter too
 * long): answered like any other refusal, in the envelope the URL calls for, `bad_request`
 * (the contract's catch-all for a 4xx without its own code) and with `x-im-trace-id` (every
 * response carries it). The request hooks did not run, so the trace id is set here.
 */
export function answerFrameworkError(
  error: Error & { statusCode?: number },
  request: FastifyRequest,
  reply: FastifyReply,
  traceId: string,
): FastifyReply {
  reply.header('x-im-trace-id', traceId);
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  return sendError(request, reply, new SandboxError(status, 'bad_request', 'The request URL is malformed.'));
}
