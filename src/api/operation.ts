import {
  operation,
  operationPath,
  type Method,
  type OperationId,
  type OperationPath,
  type ParamNames,
  type PathParams,
} from '../contract/operations.js';
import type { RequestSpec } from './client.js';
import type { Query } from './path.js';
import type { Expect } from './shape.js';

/** The path parameters of an operation: required when its path has some, absent otherwise. */
type ParamsOf<I extends OperationId> = [ParamNames<OperationPath<I>>] extends [never]
  ? { params?: undefined }
  : { params: PathParams<I> };

/** What a call of an operation gives beyond its id. */
export type CallSpec<I extends OperationId> = ParamsOf<I> & {
  /** the workspace of a Bearer operation */
  workspaceId?: string | undefined;
  query?: Query | undefined;
  body?: unknown;
  /** what a 2xx answer must hold (default: reads an object, writes JSON or nothing) */
  expect?: Expect | undefined;
};

/**
 * The request of an operation of the registry: its method and path (parameters encoded), its
 * authentication, and whether it may be repeated: reads always, writes when the entry says so.
 */
export function requestFor<I extends OperationId>(id: I, spec: CallSpec<I>): RequestSpec {
  const op = operation(id);
  const params = (spec.params ?? {}) as Record<string, string | number | bigint>;
  return {
    method: op.method,
    path: operationPath(id, params),
    auth: op.auth,
    workspaceId: spec.workspaceId,
    query: spec.query,
    body: spec.body,
    repeatable: op.method === 'GET' || op.repeatable === true || op.changesNothing === true,
    changesNothing: op.changesNothing,
    expect: spec.expect,
  };
}

/**
 * An operation's method and path for a plan shown to a person (`--dry-run`): a parameter given
 * as `{name}` is a placeholder for a value not known yet (an id the service has not given), kept
 * as it is; any other value is encoded as in a request.
 */
export function plannedRequest<I extends OperationId>(
  id: I,
  params: Record<ParamNames<OperationPath<I>>, string>,
): { method: Method; path: string } {
  const values: Record<string, string> = {};
  const placeholders = new Map<string, string>();
  for (const [name, value] of Object.entries<string>(params)) {
    if (/^\{[A-Za-z0-9_]+\}$/.test(value)) {
      const mark = `placeholder-${placeholders.size}`;
      placeholders.set(mark, value);
      values[name] = mark;
    } else values[name] = value;
  }
  let path = operationPath(id, values);
  for (const [mark, value] of placeholders) path = path.replace(mark, value);
  return { method: operation(id).method, path };
}
