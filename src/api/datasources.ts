import type { ListOptions, Service } from './service.js';

/** Data sources a workspace can connect: a workspace operation (Bearer). */

export interface DataSource {
  name: string;
  title?: string;
  category?: string;
  [key: string]: unknown;
}

export function listDataSources(api: Service, ws: string, opts?: ListOptions): AsyncGenerator<DataSource> {
  return api.list('datasources.list', { workspaceId: ws }, opts);
}
