import type { FastifyInstance } from 'fastify';
import { tableFields } from '../../../contract/requests.js';
import { notFound } from '../../errors.js';
import { byId, paginate, parseBody, pathId, requireBearer } from '../../http.js';
import type { Store } from '../../store.js';
import type { DataTable } from '../../types.js';
import {
  SYSTEM_FIELDS,
  SYSTEM_FIELD_NAMES,
  emitDataTable,
  invalid,
  selectedFieldsOf,
  tableProviderFields,
  tableTemplate,
  workspaceTable,
} from './model.js';
import { serve } from '../../operations.js';

function tableSummary(store: Store, t: DataTable) {
  return {
    id: t.id,
    title: t.title,
    sql_name: t.sql_name,
    datasource_name: t.datasource_name,
    extract_template_id: tableTemplate(store, t)?.id ?? null,
    rows_count: store.state.data_table_rows[String(t.id)]?.length ?? 0,
    created_at: t.created_at,
  };
}

/**
 * The full schema, system fields included, and `sql_name` (docs/contract-rules.md, Data table).
 * Each field also says whether it is selected (system fields always are) and whether it is a
 * system field.
 */
export function tableDetail(store: Store, t: DataTable) {
  const selected = selectedFieldsOf(store, t);
  const fields = [
    ...tableProviderFields(store, t).map((f) => ({ ...f, is_system: false, is_selected: selected.includes(f.name) })),
    ...SYSTEM_FIELDS.map((f) => ({ ...f, is_system: true, is_selected: true })),
  ];
  return {
    ...tableSummary(store, t),
    extract_ids: store.state.extracts.filter((e) => e.data_table_id === t.id).map((e) => e.id),
    selected_fields: selected,
    fields,
  };
}

export function tableRoutes(app: FastifyInstance, store: Store): void {
  const requireTable = (wsId: number, raw: string) => {
    const t = workspaceTable(store, wsId, pathId(raw));
    if (!t) throw notFound('Data table not found.');
    return t;
  };

  serve(app, 'tables.list', async (request) => {
    const auth = requireBearer(store, request);
    const items = store.state.data_tables
      .filter((t) => t.workspace_id === auth.workspaceId)
      .sort(byId)
      .map((t) => tableSummary(store, t));
    return paginate(request, items, { mode: 'v3' });
  });

  serve<{ Params: { data_table_id: string } }>(app, 'tables.get', async (request) => {
    const auth = requireBearer(store, request);
    return tableDetail(store, requireTable(auth.workspaceId, request.params.data_table_id));
  });

  /**
   * `selected_fields` is the full list; unlisted fields become deselected, unknown names are
   * ignored, dimensions cannot be deselected (400; docs/contract-rules.md, Data tables, PUT).
   * System fields are always delivered, so listing them or not changes nothing.
   */
  serve<{ Params: { data_table_id: string } }>(
    app,
    'tables.setFields',
    { config: { body: tableFields } },
    async (request) => {
      const auth = requireBearer(store, request);
      const t = requireTable(auth.workspaceId, request.params.data_table_id);
      const { selected_fields: wanted } = parseBody(tableFields, request.body);
      const provider = tableProviderFields(store, t);
      const dropped = provider
        .filter((f) => f.user_type === 'dimension' && !wanted.includes(f.name))
        .map((f) => f.name);
      if (dropped.length > 0)
        throw invalid('selected_fields', `dimension fields cannot be deselected: ${dropped.join(', ')}`);
      const before = selectedFieldsOf(store, t);
      t.selected_fields = provider.map((f) => f.name).filter((n) => wanted.includes(n) && !SYSTEM_FIELD_NAMES.has(n));
      if (JSON.stringify(before) !== JSON.stringify(selectedFieldsOf(store, t))) {
        emitDataTable(store, 'table_meta_set', t);
        store.changed();
      }
      return tableDetail(store, t);
    },
  );
}
