import { ApiClient, type AuthKind, type RequestLogEntry } from './client.js';
import type { RetryNotice } from './retry.js';
import { CredentialAuth, type Credentials } from './auth.js';
import type { ConfigStore } from '../config/store.js';
import { paginate, pageQuery, type Page } from './paginate.js';
import type { Query } from './path.js';

export interface ListSpec {
  path: string;
  auth: AuthKind;
  workspaceId?: string | undefined;
  query?: Query | undefined;
  /** page size to ask for; the contract's default and v3.1 maximum is 100 */
  pageSize?: number | undefined;
  /** a list read with POST and a body (custom setting options); paging stays in the query */
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
}

/** The client plus what every resource module needs: auth and auto-paging. */
export class Service {
  readonly client: ApiClient;
  readonly auth: CredentialAuth;
  readonly pageConcurrency: number | undefined;

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
    });
    this.pageConcurrency = opts.pageConcurrency;
  }

  list<T>(spec: ListSpec, opts: ListOptions = {}): AsyncGenerator<T> {
    const pageSize = spec.pageSize ?? 100;
    // A list read changes nothing, so it may be repeated even when sent as a POST.
    const get = async (target: string, query?: Query) =>
      (
        await this.client.request<Page<T> | T[]>({
          method: spec.method ?? 'GET',
          path: target,
          auth: spec.auth,
          workspaceId: spec.workspaceId,
          query,
          body: spec.body,
          repeatable: true,
          changesNothing: true,
          expect: 'page',
        })
      ).data;
    return paginate<T>(
      {
        page: (page, size) => get(spec.path, pageQuery(spec.query, page, size)),
        // As the service sent it: the client refuses a link to any other origin.
        follow: (url) => get(url),
      },
      { pageSize, limit: opts.limit, concurrency: opts.concurrency ?? this.pageConcurrency },
    );
  }

  async close(): Promise<void> {
    await this.auth.flush().catch(() => undefined);
    await this.client.close();
  }
}
