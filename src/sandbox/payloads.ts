import type { Store } from './store.js';
import type { DataTable, Extract } from './types.js';

/**
 * Events about the shared extract and data table records, with the contract's Extraction and
 * DataTable payload keys. Both the extraction area and recipe builds emit them.
 */

export function emitExtraction(store: Store, type: string, e: Extract, orderId: number | string = e.id): void {
  store.emit(type, e.workspace_id, 'Extraction', {
    is_action_log: 'false',
    agency_title: store.state.agency.title,
    workspace_title: store.workspace(e.workspace_id)?.title ?? '',
    dts_order_params_id: String(e.id),
    order_id: String(orderId),
  });
}

export function emitDataTable(store: Store, type: string, t: DataTable): void {
  store.emit(type, t.workspace_id, 'DataTable', {
    agency_title: store.state.agency.title,
    workspace_title: store.workspace(t.workspace_id)?.title ?? '',
    datatable_id: String(t.id),
    datatable_name: t.sql_name,
    datatable_title: t.title,
    datasource_name: t.datasource_name ?? '',
    datatable_sql_name: t.sql_name,
  });
}
