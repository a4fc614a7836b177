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
export const forbidden = (why = 'You do not have permission to perform this action.') => new SandboxError(403, 'permission_denied', why);
export const badRequest = (why: string, extra: Record<string, unknown> = {}) => new SandboxError(400, 'bad_request', why, {}, extra);

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
 * Contract, Errors "Two shapes": the v3.1 recipe operations and the v3.1 accounts list answer
 * `{code, message, details}`; everything else answers `{detail}`.
 */
export function usesCodeEnvelope(url: string): boolean {
  const p = url.split('?')[0]!;
  return p.startsWith('/api/v3.1/automated-recipe') || /^\/api\/v3\.1\/connections\/[^/]+\/accounts(\/|$)/.test(p);
}

export function errorBody(url: string, err: SandboxError): Record<string, unknown> {
  if (usesCodeEnvelope(url)) return { code: err.code, message: err.message, details: err.details };
  return { detail: err.message, ...err.v3Extra };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: SandboxError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.code(err.status).type('application/json').send(errorBody(request.url, err));
}
