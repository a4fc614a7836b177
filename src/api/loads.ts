import { jsonInteger } from '../util/json.js';
import type { ReceivedWith } from '../contract/answers.js';
import type { Schedule } from '../contract/extraction.js';
import type { loadPut, loadRun, Sent } from '../contract/requests.js';
import type { ListOptions, Service } from './service.js';

/** Loads (bodies not shown throughout; the shapes are documented with the commands): workspace operations (Bearer). */

export interface LoadRun {
  id?: number | string;
  status?: string;
  date_from?: string | null;
  date_to?: string | null;
  rows?: number | null;
  file?: string | null;
  error?: string | null;
  [key: string]: unknown;
}

/** A load: its id (all the contract shows), and what the vendor's documentation adds. */
export type Load = ReceivedWith<
  'Load',
  {
    title?: string;
    data_table_id?: number | string;
    destination_connection_id?: number | string;
    schedule?: string;
    status?: string;
    last_run?: LoadRun | null;
  }
>;

export interface LoadWrite {
  title: string;
  data_table_id: string;
  destination_connection_id: string;
  /** one of SCHEDULES; a schedule the service gave is sent back as it is, even one this tool does not know */
  schedule: Schedule | (string & {});
}

/** A load's body as the contract has it, but for a schedule the tool does not know, sent back as it is. */
type LoadBody = Partial<Omit<Sent<typeof loadPut>, 'schedule'> & Pick<LoadWrite, 'schedule'>>;

function body(w: Partial<LoadWrite>): LoadBody {
  const out: LoadBody = {};
  if (w.title !== undefined) out.title = w.title;
  if (w.data_table_id !== undefined) out.data_table_id = jsonInteger(w.data_table_id);
  if (w.destination_connection_id !== undefined)
    out.destination_connection_id = jsonInteger(w.destination_connection_id);
  if (w.schedule !== undefined) out.schedule = w.schedule;
  return out;
}

export function listLoads(api: Service, ws: string, opts?: ListOptions): AsyncGenerator<Load> {
  return api.list<'loads.list', Load>('loads.list', { workspaceId: ws }, opts);
}

export function getLoad(api: Service, ws: string, id: string): Promise<Load> {
  return api.read<'loads.get', Load>('loads.get', { params: { id }, workspaceId: ws, expect: ['id'] });
}

export async function createLoad(
  api: Service,
  ws: string,
  w: Partial<LoadWrite> & Pick<LoadWrite, 'data_table_id' | 'destination_connection_id'>,
): Promise<Load> {
  const res = await api.call<'loads.create', Load>('loads.create', { workspaceId: ws, body: body(w) });
  return res.data;
}

/** PUT takes the whole load; the same body twice leaves the same load. */
export async function putLoad(api: Service, ws: string, id: string, w: LoadWrite): Promise<Load> {
  const res = await api.call<'loads.replace', Load>('loads.replace', {
    params: { id },
    workspaceId: ws,
    body: body(w),
  });
  return res.data;
}

/** Not repeated on a lost answer: a second delete would answer 404. */
export async function deleteLoad(api: Service, ws: string, id: string): Promise<void> {
  await api.call('loads.delete', { params: { id }, workspaceId: ws });
}

export async function setLoadPaused(api: Service, ws: string, id: string, paused: boolean): Promise<Load> {
  return api.read(paused ? 'loads.pause' : 'loads.unpause', { params: { id }, workspaceId: ws });
}

/**
 * Optional `date_from`, `date_to` run that range instead of the schedule window (docs/contract-rules.md, Loads,
 * PUT run).
 */
export async function runLoad(
  api: Service,
  ws: string,
  id: string,
  range?: { from: string; to: string },
): Promise<Load> {
  const res = await api.call<'loads.run', Load>('loads.run', {
    params: { id },
    workspaceId: ws,
    body: (range ? { date_from: range.from, date_to: range.to } : {}) satisfies Sent<typeof loadRun>,
  });
  return res.data;
}
