import type { Received, Without } from '../contract/answers.js';
import type { Sent, tableFields } from '../contract/requests.js';
import type { Field } from './extract-templates.js';
import type { ListOptions, Service } from './service.js';

/** Data tables: workspace operations (Bearer). */

/** A data table's field, with whether it is a system field and whether it is delivered. */
export type TableField = Field & {
  is_system?: boolean;
  is_selected?: boolean;
};

/** A data table as lists show it (the vendor's documentation) and, in detail, with its whole schema. */
export type DataTable = Without<Partial<Received<'DataTable'>>, 'fields'> & {
  id: number | string;
  title?: string;
  datasource_name?: string | null;
  selected_fields?: string[];
  fields?: TableField[];
};

export function listTables(api: Service, ws: string, opts?: ListOptions): AsyncGenerator<DataTable> {
  return api.list('tables.list', { workspaceId: ws }, opts);
}

export function getTable(api: Service, ws: string, id: string): Promise<DataTable> {
  return api.read('tables.get', { params: { data_table_id: id }, workspaceId: ws, expect: ['id'] });
}

/**
 * `selected_fields` is the full list (docs/contract-rules.md, Data tables, PUT); the same list twice gives the same
 * table.
 */
export async function setSelectedFields(api: Service, ws: string, id: string, selected: string[]): Promise<DataTable> {
  return api.read('tables.setFields', {
    params: { data_table_id: id },
    workspaceId: ws,
    body: { selected_fields: selected } satisfies Sent<typeof tableFields>,
  });
}
