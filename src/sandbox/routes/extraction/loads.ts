import type { FastifyInstance } from 'fastify';
import { loadCreate, loadPut, loadRun } from '../../../contract/requests.js';
import { notFound } from '../../errors.js';
import { byId, paginate, parseBody, pathId, queryOf, requireBearer, type IdParams } from '../../http.js';
import type { ClockTimer } from '../../clock.js';
import type { Store } from '../../store.js';
import type { DataTable, DestinationConnection } from '../../types.js';
import {
  type Load,
  type LoadRun,
  SYSTEM_FIELDS,
  conflict,
  invalid,
  isoDay,
  selectedFieldsOf,
  tableProviderFields,
  workspaceTable,
  workspaceTitle,
} from './model.js';
import { serve } from '../../operations.js';

/** Days a scheduled run delivers when no range is given. */
const SCHEDULE_WINDOW_DAYS = 7;

export function loadView(store: Store, l: Load) {
  const dc = store.state.destination_connections.find((d) => d.id === l.destination_connection_id);
  return {
    id: l.id,
    title: l.title,
    data_table_id: l.data_table_id,
    destination_connection_id: l.destination_connection_id,
    destination_name: dc?.destination_name ?? null,
    schedule: l.schedule,
    status: l.is_paused ? 'paused' : 'active',
    is_paused: l.is_paused,
    last_run: l.last_run,
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

function emitLoad(store: Store, type: string, l: Load, orderId: number | string = l.id): void {
  const dc = store.state.destination_connections.find((d) => d.id === l.destination_connection_id);
  store.emit(type, l.workspace_id, 'Load', {
    agency_title: store.state.agency.title,
    workspace_title: workspaceTitle(store, l.workspace_id),
    load_destination_title: dc?.title ?? '',
    load_id: String(l.id),
    order_id: String(orderId),
    order_ui_link: `/loads/${l.id}/runs/${orderId}`,
  });
}

function csvCell(v: unknown): string {
  const text = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The export a run writes: the table's selected fields, then the system fields (they appear in
 * the CSV exports of loads: docs/contract-rules.md, What the service does), rows of the range
 * by the table's date field.
 */
export function exportCsv(store: Store, table: DataTable, from: string, to: string): { csv: string; rows: number } {
  const provider = tableProviderFields(store, table);
  const selected = selectedFieldsOf(store, table);
  const columns = [
    ...provider.filter((f) => selected.includes(f.name)).map((f) => f.name),
    ...SYSTEM_FIELDS.map((f) => f.name),
  ];
  const dateField = provider.find((f) => f.format === 'iso_8601_date')?.name;
  const rows = (store.state.data_table_rows[String(table.id)] ?? []).filter((r) => {
    if (!dateField) return true;
    const day = String(r.values[dateField] ?? '');
    return day >= from && day <= to;
  });
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => csvCell(r.values[c])).join(','))];
  return { csv: `${lines.join('\n')}\n`, rows: rows.length };
}

function fileName(dc: DestinationConnection, table: DataTable, day: string): string {
  const template =
    typeof dc.connection_params.filename === 'string' ? dc.connection_params.filename : '{{table_name}}/{{date}}.csv';
  return template
    .replaceAll('{{table_name}}', table.sql_name)
    .replaceAll('{{date}}', day)
    .replaceAll('{{chunk_id}}', '0');
}

export function loadRoutes(app: FastifyInstance, store: Store): void {
  const s = () => store.state;
  const timers = new Set<ClockTimer>();
  app.addHook('onClose', async () => {
    for (const t of timers) store.clock.clearTimeout(t);
    timers.clear();
  });

  const requireLoad = (loadId: string, wsId: number): Load => {
    const id = pathId(loadId);
    const l = s().loads.find((x) => x.id === id && x.workspace_id === wsId);
    if (!l) throw notFound('Load not found.');
    return l;
  };
  const requireRefs = (wsId: number, tableId: number, dcId: number) => {
    const table = workspaceTable(store, wsId, tableId);
    if (!table) throw invalid('data_table_id', `no data table ${tableId} in this workspace`);
    const dc = s().destination_connections.find((d) => d.id === dcId && d.workspace_id === wsId);
    if (!dc) throw invalid('destination_connection_id', `no destination connection ${dcId} in this workspace`);
    return { table, dc };
  };

  serve(app, 'loads.list', async (request) => {
    const auth = requireBearer(store, request);
    const items = s()
      .loads.filter((l) => l.workspace_id === auth.workspaceId)
      .sort(byId)
      .map((l) => loadView(store, l));
    return paginate(request, items, { mode: 'v3' });
  });

  serve(app, 'loads.create', { config: { body: loadCreate } }, async (request, reply) => {
    const auth = requireBearer(store, request);
    const body = parseBody(loadCreate, request.body);
    const { table, dc } = requireRefs(auth.workspaceId, body.data_table_id, body.destination_connection_id);
    const now = store.clock.iso();
    const load: Load = {
      id: store.nextId('load'),
      workspace_id: auth.workspaceId,
      title: body.title ?? `${table.title} to ${dc.title}`,
      data_table_id: table.id,
      destination_connection_id: dc.id,
      schedule: body.schedule ?? 'daily',
      is_paused: false,
      last_run: null,
      created_at: now,
      updated_at: now,
    };
    s().loads.push(load);
    emitLoad(store, 'load_created', load);
    store.changed();
    return reply.code(201).send(loadView(store, load));
  });

  serve<{ Params: IdParams }>(app, 'loads.get', async (request) => {
    const auth = requireBearer(store, request);
    return loadView(store, requireLoad(request.params.id, auth.workspaceId));
  });

  serve<{ Params: IdParams }>(app, 'loads.replace', { config: { body: loadPut } }, async (request) => {
    const auth = requireBearer(store, request);
    const load = requireLoad(request.params.id, auth.workspaceId);
    const body = parseBody(loadPut, request.body);
    requireRefs(auth.workspaceId, body.data_table_id, body.destination_connection_id);
    if (body.schedule !== load.schedule) emitLoad(store, 'schedules_changed', load);
    Object.assign(load, {
      title: body.title,
      data_table_id: body.data_table_id,
      destination_connection_id: body.destination_connection_id,
      schedule: body.schedule,
    });
    load.updated_at = store.clock.iso();
    store.changed();
    return loadView(store, load);
  });

  serve<{ Params: IdParams }>(app, 'loads.delete', async (request, reply) => {
    const auth = requireBearer(store, request);
    const load = requireLoad(request.params.id, auth.workspaceId);
    s().loads = s().loads.filter((l) => l !== load);
    store.changed();
    return reply.code(204).send();
  });

  serve<{ Params: IdParams }>(app, 'loads.pause', async (request) => {
    const auth = requireBearer(store, request);
    const load = requireLoad(request.params.id, auth.workspaceId);
    if (!load.is_paused) {
      load.is_paused = true;
      load.updated_at = store.clock.iso();
      emitLoad(store, 'order_paused', load);
      store.changed();
    }
    return loadView(store, load);
  });

  serve<{ Params: IdParams }>(app, 'loads.unpause', async (request) => {
    const auth = requireBearer(store, request);
    const load = requireLoad(request.params.id, auth.workspaceId);
    if (load.is_paused) {
      load.is_paused = false;
      load.updated_at = store.clock.iso();
      emitLoad(store, 'order_started', load);
      store.changed();
    }
    return loadView(store, load);
  });

  /**
   * Optional `date_from`, `date_to` run a range instead of the schedule window (docs/contract-rules.md, Loads, PUT
   * run).
   */
  serve<{ Params: IdParams }>(app, 'loads.run', { config: { body: loadRun } }, async (request, reply) => {
    const auth = requireBearer(store, request);
    const load = requireLoad(request.params.id, auth.workspaceId);
    const body = parseBody(loadRun, request.body);
    // Both dates are optional, each on its own: an omitted end is today, an omitted start is
    // the schedule window's start (or the given end, when that lies before the window).
    const today = isoDay(store.clock.now());
    if (body.date_from && body.date_to && body.date_from > body.date_to)
      throw invalid('date_to', `must not be before date_from (${body.date_from})`);
    if (body.date_from && !body.date_to && body.date_from > today)
      throw invalid('date_from', `must not be after today (${today}) when date_to is omitted`);
    if (load.is_paused) throw conflict(`Load ${load.id} is paused; unpause it first.`);
    if (load.last_run?.status === 'running')
      throw conflict(`Load ${load.id} is already running (run ${load.last_run.id}).`);
    const dc = s().destination_connections.find((d) => d.id === load.destination_connection_id);
    if (!dc || dc.status !== 'active')
      throw conflict(
        `The destination connection of load ${load.id} is not active${dc?.error_text ? `: ${dc.error_text}` : ''}.`,
      );
    const now = store.clock.now();
    const run: LoadRun = {
      id: store.nextId('load_run'),
      status: 'running',
      date_from: body.date_from ?? null,
      date_to: body.date_to ?? null,
      started_at: store.clock.iso(),
      finished_at: null,
      rows: null,
      file: null,
      export_id: null,
      error: null,
    };
    load.last_run = run;
    emitLoad(store, 'load_started', load, run.id);
    const to = body.date_to ?? isoDay(now);
    const windowStart = isoDay(now - (SCHEDULE_WINDOW_DAYS - 1) * 86_400_000);
    const from = body.date_from ?? (to < windowStart ? to : windowStart);
    const timer = store.clock.setTimeout(() => {
      timers.delete(timer);
      if (!s().loads.includes(load) || load.last_run !== run) return;
      const table = workspaceTable(store, load.workspace_id, load.data_table_id);
      run.finished_at = store.clock.iso();
      if (!table) {
        run.status = 'failed';
        run.error = `Data table ${load.data_table_id} no longer exists.`;
        emitLoad(store, 'error_changed', load, run.id);
      } else {
        const { csv, rows } = exportCsv(store, table, from, to);
        const file = fileName(dc, table, to);
        const exp = {
          id: store.nextId('load_export'),
          load_id: load.id,
          workspace_id: load.workspace_id,
          file,
          csv,
          created_at: run.finished_at,
        };
        s().load_exports.push(exp);
        // Only the latest exports are kept, so that memory stays small.
        if (s().load_exports.length > 200) s().load_exports.splice(0, s().load_exports.length - 200);
        Object.assign(run, { status: 'completed', rows, file, export_id: exp.id });
      }
      emitLoad(store, 'load_completed', load, run.id);
      store.changed();
    }, store.opts.buildSeconds * 1000);
    timers.add(timer);
    store.changed();
    return reply.code(202).send(loadView(store, load));
  });

  // Sandbox-only: the files load runs wrote (what the destination would have received).
  app.get('/_sandbox/exports', async (request) => {
    const loadId = queryOf(request).load_id;
    return s()
      .load_exports.filter((e) => loadId === undefined || String(e.load_id) === loadId)
      .map(({ id, load_id, workspace_id, file, created_at }) => ({ id, load_id, workspace_id, file, created_at }));
  });

  app.get<{ Params: IdParams }>('/_sandbox/exports/:id', async (request, reply) => {
    const id = Number(request.params.id);
    const exp = s().load_exports.find((e) => e.id === id);
    if (!exp) throw notFound(`No export ${id}.`);
    return reply.type('text/csv').send(exp.csv);
  });
}
