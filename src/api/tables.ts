import { path } from './path.js';
import type { Sent, tableFields } from '../contract/requests.js';
import type { Field } from './extract-templates.js';
import type { ListOptions, Service } from './service.js';

/** Data tables: workspace operations (Bearer). */

export interface TableField extends Field {
  is_system?: boolean;
  is_selected?: boolean;
}

export interface DataTable {
  id: number | string;
  title?: string;
  sql_name?: string;
  datasource_name?: string | null;
  selected_fields?: string[];
  fields?: TableField[];
  [key: string]: unknown;
}

export function listTables(api: Service, ws: string, opts?: ListOptions): AsyncGenerator<DataTable> {
  return api.list<DataTable>({ path: '/api/v3/data-tables', auth: 'bearer', workspaceId: ws }, opts);
}

export function getTable(api: Service, ws: string, id: string): Promise<DataTable> {
  return api.client.get<DataTable>(path`/api/v3/data-tables/${id}`, 'bearer', ws, ['id']);
}

/**
 * `selected_fields` is the full list (docs/contract-rules.md, Data tables, PUT); the same list twice gives the same
 * table.
 */
export async function setSelectedFields(api: Service, ws: string, id: string, selected: string[]): Promise<DataTable> {
  const res = await api.client.request<DataTable>({
    method: 'PUT',
    path: path`/api/v3/data-tables/${id}`,
    auth: 'bearer',
    workspaceId: ws,
    body: { selected_fields: selected } satisfies Sent<typeof tableFields>,
    repeatable: true,
  });
  return res.data;
}
