import type {
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import { OPERATIONS, operation, type OperationId } from '../contract/operations.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the registry's id of the operation a route serves (src/contract/operations.ts) */
    operationId?: string;
  }
}

type Handler<RG extends RouteGenericInterface> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RG
>;
type Options<RG extends RouteGenericInterface> = RouteShorthandOptions<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RG
>;

/**
 * Binds the handler of an operation of the registry: its method and path are the entry's, so
 * that the sandbox serves exactly the operations the client calls and the document shows.
 */
export function serve<RG extends RouteGenericInterface = RouteGenericInterface>(
  app: FastifyInstance,
  id: OperationId,
  handler: Handler<RG>,
): void;
export function serve<RG extends RouteGenericInterface = RouteGenericInterface>(
  app: FastifyInstance,
  id: OperationId,
  options: Options<RG>,
  handler: Handler<RG>,
): void;
export function serve<RG extends RouteGenericInterface = RouteGenericInterface>(
  app: FastifyInstance,
  id: OperationId,
  optionsOrHandler: Options<RG> | Handler<RG>,
  maybeHandler?: Handler<RG>,
): void {
  const op = operation(id);
  const options = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
  const handler = typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler!;
  app.route<RG>({
    ...options,
    method: op.method,
    url: op.path,
    config: { ...options.config, operationId: id },
    handler,
  });
}

/**
 * Makes the sandbox's start fail when its routes and the registry disagree: a route under
 * `/api/` not bound by `serve` (a path of its own), an operation bound twice, or one without a
 * handler once every area has registered its routes. Routes outside `/api/` are the sandbox's
 * own controls and pages.
 */
export function requireEveryOperation(app: FastifyInstance): void {
  const bound = new Map<string, number>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    if (methods.length === 0) return;
    const id = route.config?.operationId;
    if (id === undefined)
      throw new Error(`${methods.join(',')} ${route.url} is not an operation of the registry: bind it with serve()`);
    bound.set(id, (bound.get(id) ?? 0) + 1);
  });
  app.addHook('onReady', (done) => {
    const problems = [
      ...OPERATIONS.filter((o) => !bound.has(o.id)).map((o) => `${o.id} (${o.method} ${o.path}) has no handler`),
      ...[...bound].filter(([, n]) => n > 1).map(([id]) => `${id} has ${bound.get(id)} handlers`),
    ];
    done(
      problems.length > 0
        ? new Error(`the sandbox's routes and the registry disagree: ${problems.join('; ')}`)
        : undefined,
    );
  });
}
