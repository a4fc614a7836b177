import { ApiClient, type ApiResponse, type RequestLogEntry, type RequestSpec } from './client.js';
import type { RetryNotice } from './retry.js';
import { CredentialAuth } from './auth.js';
import type { Credentials } from '../config/credentials.js';
import type { ConfigStore } from '../config/store.js';
import type { AuthKind, OperationId } from '../contract/operations.js';
import { requestFor, type CallSpec } from './operation.js';
import { paginate, pageQuery, type Page } from './paginate.js';
import type { Query } from './path.js';
import { foundUnreachable } from '../util/poll.js';

/** A list: its operation, and the page size to ask for (the contract's default and v3.1 maximum is 100). */
export type ListSpec<I extends OperationId> = Omit<CallSpec<I>, 'expect'> & { pageSize?: number | undefined };

/** A list at a path of the caller's (`edp api --paginate`: the one path a person gives). */
export interface PathListSpec {
  path: string;
  auth: AuthKind;
  workspaceId?: string | undefined;
  query?: Query | undefined;
  pageSize?: number | undefined;
  /** a list read with POST and a body; paging stays in the query */
  method?: 'GET' | 'POST' | undefined;
  body?: unknown;
}

export interface ListOptions {
  limit?: number | undefined;
  concurrency?: number | undefined;
}

export interface ServiceOptions {
  baseUrl: string;
  timeoutMs: number;
  credentials: Credentials;
  store?: ConfigStore | undefined;
  profile: string;
  log?: ((entry: RequestLogEntry) => void) | undefined;
  signal?: AbortSignal | undefined;
  userAgent?: string | undefined;
  pageConcurrency?: number | undefined;
  onRetry?: ((notice: RetryNotice) => void) | undefined;
  maxResponseBytes?: number | undefined;
  /** where the proxy variables are read from (see ClientOptions.env) */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** the pause before a repeat (see ClientOptions.sleep) */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/** The client plus what every resource module needs: auth and auto-paging. */
export class Service {
  readonly client: ApiClient;
  readonly auth: CredentialAuth;
  readonly pageConcurrency: number | undefined;
  /** The error that showed this run its service unreachable, once work ended on one (see noteFailure). */
  private unreachableFound: Error | undefined;

  constructor(opts: ServiceOptions) {
    this.auth = new CredentialAuth({
      credentials: opts.credentials,
      baseUrl: opts.baseUrl,
      store: opts.store,
      profile: opts.profile,
    });
    this.client = new ApiClient({
      baseUrl: opts.baseUrl,
      timeoutMs: opts.timeoutMs,
      auth: this.auth,
      log: opts.log,
      signal: opts.signal,
      userAgent: opts.userAgent,
      onRetry: opts.onRetry,
      maxResponseBytes: opts.maxResponseBytes,
      env: opts.env,
      sleep: opts.sleep,
    });
    this.pageConcurrency = opts.pageConcurrency;
  }

  /**
   * Calls an operation of the registry by its id: method, path, authentication and whether a
   * repeat is safe come from its entry (src/contract/operations.ts). The answer's type is the
   * caller's (inferred from where the result goes).
   */
  call<I extends OperationId, T = unknown>(id: I, spec: CallSpec<I>): Promise<ApiResponse<T>> {
    return this.client.request<T>(requestFor(id, spec));
  }

  /** The data of an operation's answer. */
  async read<I extends OperationId, T = unknown>(id: I, spec: CallSpec<I>): Promise<T> {
    return (await this.call<I, T>(id, spec)).data;
  }

  /** Every item of a list operation, page after page. */
  list<I extends OperationId, T = unknown>(id: I, spec: ListSpec<I>, opts?: ListOptions): AsyncGenerator<T>;
  list<T>(spec: PathListSpec, opts?: ListOptions): AsyncGenerator<T>;
  list<I extends OperationId, T = unknown>(
    idOrSpec: I | PathListSpec,
    specOrOpts?: ListSpec<I> | ListOptions,
    maybeOpts?: ListOptions,
  ): AsyncGenerator<T> {
    if (typeof idOrSpec !== 'string') {
      const spec = idOrSpec;
      return this.pages<T>(
        {
          method: spec.method ?? 'GET',
          path: spec.path,
          auth: spec.auth,
          workspaceId: spec.workspaceId,
          body: spec.body,
          query: spec.query,
        },
        spec.pageSize,
        (specOrOpts ?? {}) as ListOptions,
      );
    }
    const spec = specOrOpts as ListSpec<I>;
    return this.pages<T>(requestFor<I>(idOrSpec, spec as CallSpec<I>), spec.pageSize, maybeOpts ?? {});
  }

  private pages<T>(first: RequestSpec, pageSize: number | undefined, opts: ListOptions): AsyncGenerator<T> {
    // A list read changes nothing, so it may be repeated even when sent as a POST.
    const get = async (target: string, query?: Query) =>
      (
        await this.client.request<Page<T> | T[]>({
          ...first,
          path: target,
          query,
          repeatable: true,
          changesNothing: true,
          expect: 'page',
        })
      ).data;
    return paginate<T>(
      {
        page: (page, size) => get(first.path, pageQuery(first.query, page, size)),
        // As the service sent it: the client refuses a link to any other origin.
        follow: (url) => get(url),
      },
      { pageSize: pageSize ?? 100, limit: opts.limit, concurrency: opts.concurrency ?? this.pageConcurrency },
    );
  }

  /**
   * Told of the error some work of the run ended on: one that shows the service unreachable
   * (foundUnreachable in util/poll.ts) is kept, and from then on a fleet run (`apply`, `recipes
   * deploy` across workspaces) starts no write, in any workspace.
   */
  noteFailure(err: unknown): void {
    if (this.unreachableFound === undefined && err instanceof Error && foundUnreachable(err))
      this.unreachableFound = err;
  }

  /** The first error that showed this run its service unreachable, if one has (noteFailure). */
  get unreachable(): Error | undefined {
    return this.unreachableFound;
  }

  async close(): Promise<void> {
    await this.auth.flush().catch(() => undefined);
    await this.client.close();
  }
}
